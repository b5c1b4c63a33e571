import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';
import { ProblemError } from '../../core/problem-error.ts';

export interface ClaimGrant {
  secret: string;
  code: string;
  expiresAt: number;
}

export interface ClaimDeps {
  clock: Clock;
  /** How long a claim lives after its holder's last call. */
  lifetimeMs: number;
  /** How long a claim lives in all, however often its holder calls or claims again with its secret. */
  maxMs: number;
  /** Called when the claim changes (claimed, renewed with a new code, lapsed, reached its end): the box's screen shows it. */
  changed(): void;
}

/** What the box's screen tells of the claim. */
export interface ClaimView {
  /** The code of the claim held now, in two groups of three digits; null while nobody holds one. */
  code: string | null;
  /** The held claim's end however often renewed. */
  endsAt: number | null;
  /** A claim reached its limit and nobody claimed since: the owner must claim again. */
  limitReached: boolean;
}

const digest = (secret: string) => createHash('sha256').update(secret).digest();

interface Held {
  hash: Buffer;
  code: string;
  expiresAt: number;
  /** The claim's end however often it is renewed: a host on the LAN cannot keep the box from its owner. */
  endsAt: number;
  /** The address that first claimed: when the claim runs out it waits a turn, so another console can claim. */
  from: string;
}

/**
 * One console at a time holds the installer. The secret is kept only as its hash and compared in
 * constant time; each authenticated call renews the claim, so an abandoned console frees the box
 * after the lifetime, and no claim outlives its maximum.
 */
export class InstallerClaim {
  private held: Held | null = null;
  /** The address of a claim that ran out, and until when it may not claim again. */
  private spent: { from: string; until: number } | null = null;
  /** Whether the last claim ended at its limit (until the next claim): the screen asks the owner to claim again. */
  private limitReached = false;

  constructor(private readonly deps: ClaimDeps) {}

  /** When the claim lapses, or null while nobody holds it. */
  expiresAt(): number | null {
    const now = this.deps.clock.now();
    if (this.held && this.held.expiresAt <= now) {
      // Only a claim that reached its maximum waits a turn; one its console left lapses plainly.
      this.limitReached = this.held.expiresAt >= this.held.endsAt;
      if (this.limitReached) this.spent = { from: this.held.from, until: this.held.endsAt + this.deps.lifetimeMs };
      this.held = null;
      this.deps.changed();
    }
    return this.held?.expiresAt ?? null;
  }

  /**
   * A new claim for a first caller, or a fresh secret for the holder (by its secret, keeping the
   * claim's end); anyone else is refused, and so is the address of a claim that just ran out.
   */
  claim(given: string | undefined, from: string): ClaimGrant {
    const expiresAt = this.expiresAt();
    const now = this.deps.clock.now();
    if (expiresAt !== null && !this.matches(given)) throw new ProblemError('installer.claim.taken', { expiresAt: new Date(expiresAt).toISOString() });
    if (expiresAt === null && this.spent && this.spent.from === from && this.spent.until > now) {
      throw new ProblemError('installer.claim.spent', { until: new Date(this.spent.until).toISOString() });
    }
    const kept = expiresAt === null ? null : this.held;
    const endsAt = kept?.endsAt ?? now + this.deps.maxMs;
    const secret = randomBytes(32).toString('base64url');
    const code = String(randomInt(1_000_000)).padStart(6, '0');
    this.held = { hash: digest(secret), code, expiresAt: Math.min(now + this.deps.lifetimeMs, endsAt), endsAt, from: kept?.from ?? from };
    this.limitReached = false;
    this.deps.changed();
    return { secret, code, expiresAt: this.held.expiresAt };
  }

  /** The claim as the box's screen shows it (lapses a claim whose time is up first). */
  view(): ClaimView {
    this.expiresAt();
    const code = this.held && `${this.held.code.slice(0, 3)} ${this.held.code.slice(3)}`;
    return { code, endsAt: this.held?.endsAt ?? null, limitReached: this.limitReached };
  }

  /** Refuses a call without the holder's secret; renews the claim otherwise, up to its end. */
  check(given: string | undefined): void {
    if (this.expiresAt() === null || !this.matches(given)) throw new ProblemError('installer.claim.required');
    const held = this.held!;
    held.expiresAt = Math.min(this.deps.clock.now() + this.deps.lifetimeMs, held.endsAt);
  }

  private matches(given: string | undefined): boolean {
    return given !== undefined && this.held !== null && timingSafeEqual(digest(given), this.held.hash);
  }
}
