import { QueryTypes, type Sequelize } from 'sequelize';
import { ProblemError } from '../../../core/problem-error.ts';

export interface ThrottlePolicy {
  /** Failures of one trusted device (valid device cookie) before that device is locked. */
  perDevice: number;
  /** Failures for one user name from one client address (untrusted clients) before that pair is locked. */
  perUserAddress: number;
  /** Failures for one user name from all untrusted clients together: what a distributed guesser hits. */
  perUser: number;
  /** Failures per client address over any names (higher: several people may share one). */
  perAddress: number;
  /** A count is forgotten once this long has passed since its first failure and since its lock ended. */
  windowMs: number;
  /** First lock; it doubles with every further failure up to maxLockMs. */
  lockMs: number;
  maxLockMs: number;
}

export const defaultThrottlePolicy: ThrottlePolicy = {
  perDevice: 5,
  perUserAddress: 5,
  perUser: 10,
  perAddress: 20,
  windowMs: 15 * 60_000,
  lockMs: 30_000,
  maxLockMs: 15 * 60_000,
};

/** Who tries to sign in: the name as typed, the client address, and the nonce of a valid device cookie for that name. */
export interface SignInClient {
  username: string;
  address: string;
  device: string | null;
}

interface CountRow {
  key: string;
  failures: number;
  first_at: number;
  locked_until: number;
}

/**
 * Sign-in throttling after OWASP's "device cookies" design, kept in the database so a restart does
 * not reset it. A device that signed in before (valid device cookie for the name) is only held by
 * its own count, so nobody elsewhere can lock the owner out; untrusted clients are held per name and
 * address, per name together, and per address. Names count whether they exist or not, so the answer
 * says nothing about which do. Client text only ever reaches SQLite as bound parameters.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Sequelize,
    private readonly policy: ThrottlePolicy = defaultThrottlePolicy,
    private readonly now: () => number = Date.now,
  ) {}

  private keys(client: SignInClient): [string, number][] {
    const name = client.username.toLowerCase();
    if (client.device) return [[`device:${client.device}`, this.policy.perDevice]];
    return [
      // An address never holds a '/', so the name after it cannot make two pairs meet.
      [`user-ip:${client.address}/${name}`, this.policy.perUserAddress],
      [`user:${name}`, this.policy.perUser],
      [`ip:${client.address}`, this.policy.perAddress],
    ];
  }

  private async read(keys: string[]): Promise<CountRow[]> {
    const marks = keys.map((_, i) => `$${i + 1}`).join(', ');
    return this.db.query<CountRow>(`SELECT "key", failures, first_at, locked_until FROM login_throttle WHERE "key" IN (${marks})`, {
      bind: keys,
      type: QueryTypes.SELECT,
    });
  }

  /** Throws 429 auth.login.throttled with Retry-After while any of the client's keys is locked. */
  async check(client: SignInClient): Promise<void> {
    const now = this.now();
    const rows = await this.read(this.keys(client).map(([k]) => k));
    const until = Math.max(0, ...rows.map((r) => r.locked_until));
    if (until > now) {
      const retryAfter = Math.ceil((until - now) / 1000);
      throw new ProblemError('auth.login.throttled', { retryAfter }, { headers: { 'Retry-After': String(retryAfter) } });
    }
  }

  async failed(client: SignInClient): Promise<void> {
    const now = this.now();
    const keys = this.keys(client);
    const rows = new Map((await this.read(keys.map(([k]) => k))).map((r) => [r.key, r]));
    for (const [key, limit] of keys) {
      const row = rows.get(key);
      // A lock that ran out does not wipe the count at once, or the doubling would never grow past the window.
      const fresh = !row || (now - row.first_at > this.policy.windowMs && now - row.locked_until > this.policy.windowMs);
      const failures = fresh ? 1 : row.failures + 1;
      const firstAt = fresh ? now : row.first_at;
      const over = failures - limit;
      const lockedUntil = over >= 0 ? now + Math.min(this.policy.lockMs * 2 ** Math.min(over, 20), this.policy.maxLockMs) : 0;
      await this.db.query(
        `INSERT INTO login_throttle ("key", failures, first_at, locked_until) VALUES ($1, $2, $3, $4)
         ON CONFLICT ("key") DO UPDATE SET failures = excluded.failures, first_at = excluded.first_at, locked_until = excluded.locked_until`,
        { bind: [key, failures, firstAt, lockedUntil] },
      );
    }
  }

  /**
   * A success clears this client's own count (its device, or its name and address). The shared
   * counts stay: one valid account must not reset an address, nor the owner's sign-in an attacker's lock.
   */
  async succeeded(client: SignInClient): Promise<void> {
    const [[own]] = this.keys(client) as [[string, number]];
    await this.db.query('DELETE FROM login_throttle WHERE "key" = $1', { bind: [own] });
  }
}
