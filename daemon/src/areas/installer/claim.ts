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
  lifetimeMs: number;
  /** Shows the code on the box's own screen, for the owner to compare with the console's. */
  show(code: string): void;
}

const digest = (secret: string) => createHash('sha256').update(secret).digest();

/**
 * One console at a time holds the installer. The secret is kept only as its hash and compared in
 * constant time; each authenticated call renews the claim, so an abandoned console frees the box
 * after the lifetime.
 */
export class InstallerClaim {
  private held: { hash: Buffer; expiresAt: number } | null = null;

  constructor(private readonly deps: ClaimDeps) {}

  /** When the claim lapses, or null while nobody holds it. */
  expiresAt(): number | null {
    if (this.held && this.held.expiresAt <= this.deps.clock.now()) this.held = null;
    return this.held?.expiresAt ?? null;
  }

  /** A new claim for a first caller, or for the holder (by its secret); anyone else is refused. */
  claim(given: string | undefined): ClaimGrant {
    const expiresAt = this.expiresAt();
    if (expiresAt !== null && !this.matches(given)) throw new ProblemError('installer.claim.taken', { expiresAt: new Date(expiresAt).toISOString() });
    const secret = randomBytes(32).toString('base64url');
    const code = String(randomInt(1_000_000)).padStart(6, '0');
    this.held = { hash: digest(secret), expiresAt: this.deps.clock.now() + this.deps.lifetimeMs };
    this.deps.show(`${code.slice(0, 3)} ${code.slice(3)}`);
    return { secret, code, expiresAt: this.held.expiresAt };
  }

  /** Refuses a call without the holder's secret; renews the claim otherwise. */
  check(given: string | undefined): void {
    if (this.expiresAt() === null || !this.matches(given)) throw new ProblemError('installer.claim.required');
    this.held!.expiresAt = this.deps.clock.now() + this.deps.lifetimeMs;
  }

  private matches(given: string | undefined): boolean {
    return given !== undefined && this.held !== null && timingSafeEqual(digest(given), this.held.hash);
  }
}
