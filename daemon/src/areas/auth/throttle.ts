import { QueryTypes, type Sequelize } from 'sequelize';
import { ProblemError } from '../../core/problem-error.ts';

export interface ThrottlePolicy {
  /** Failures per user name from one client address (or one known device) before it is locked. */
  perUser: number;
  /** Failures per user name from every unknown device together: what a spread-out attack meets. */
  perUserUnknown: number;
  /** Failures per client address before it is locked (higher: several people may share one). */
  perAddress: number;
  /** Failures older than this are forgotten. */
  windowMs: number;
  /** First lock; it doubles with every further failure up to maxLockMs. */
  lockMs: number;
  maxLockMs: number;
}

export const defaultThrottlePolicy: ThrottlePolicy = {
  perUser: 5,
  perUserUnknown: 20,
  perAddress: 20,
  windowMs: 15 * 60_000,
  lockMs: 30_000,
  maxLockMs: 15 * 60_000,
};

/** Who tries to sign in: the name as typed, the client address, and the device that signed in as that name before (or null). */
export interface Attempt {
  username: string;
  address: string;
  device: string | null;
}

interface Row {
  key: string;
  failures: number;
  firstAt: number;
  lockedUntil: number;
}

/**
 * Sign-in throttling kept in the database, so a restart does not reset it.
 *
 * A lock on the user name alone let anybody lock the administrator out for ever with five
 * wrong passwords every few minutes. Following OWASP's device cookies, a device that signed in
 * as the name before (a signed cookie) is throttled only by its own failures; unknown
 * devices are throttled per name and address, per address, and, against attacks spread over
 * many addresses, per name over all unknown devices. Names count known or not, so the
 * answer says nothing about which exist. Every value reaches SQLite as a bound parameter.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Sequelize,
    private readonly policy: ThrottlePolicy = defaultThrottlePolicy,
    private readonly now: () => number = Date.now,
  ) {}

  private keys(a: Attempt): [string, number][] {
    const name = a.username.toLowerCase();
    if (a.device !== null) return [[`device:${a.device}`, this.policy.perUser]];
    return [
      [`user-address:${name}\n${a.address}`, this.policy.perUser],
      [`user:${name}`, this.policy.perUserUnknown],
      [`address:${a.address}`, this.policy.perAddress],
    ];
  }

  private async rows(keys: string[]): Promise<Row[]> {
    return this.db.query<Row>(
      `SELECT key, failures, first_at AS firstAt, locked_until AS lockedUntil FROM login_throttle WHERE key IN (${keys.map((_, i) => `$${i + 1}`).join(', ')})`,
      { bind: keys, type: QueryTypes.SELECT },
    );
  }

  /** Throws 429 auth.login.throttled with Retry-After while any key of the attempt is locked. */
  async check(a: Attempt): Promise<void> {
    const now = this.now();
    const rows = await this.rows(this.keys(a).map(([k]) => k));
    const until = Math.max(0, ...rows.map((r) => r.lockedUntil));
    if (until > now) {
      const retryAfter = Math.ceil((until - now) / 1000);
      throw new ProblemError('auth.login.throttled', { retryAfter }, { headers: { 'Retry-After': String(retryAfter) } });
    }
  }

  async failed(a: Attempt): Promise<void> {
    const now = this.now();
    const keys = this.keys(a);
    const known = new Map((await this.rows(keys.map(([k]) => k))).map((r) => [r.key, r]));
    for (const [key, limit] of keys) {
      const row = known.get(key);
      const fresh = !row || now - row.firstAt > this.policy.windowMs;
      const failures = fresh ? 1 : row.failures + 1;
      const firstAt = fresh ? now : row.firstAt;
      const over = failures - limit;
      const lockedUntil = over >= 0 ? now + Math.min(this.policy.lockMs * 2 ** Math.min(over, 20), this.policy.maxLockMs) : 0;
      await this.db.query(
        'INSERT INTO login_throttle (key, failures, first_at, locked_until) VALUES ($1, $2, $3, $4) ON CONFLICT (key) DO UPDATE SET failures = $2, first_at = $3, locked_until = $4',
        { bind: [key, failures, firstAt, lockedUntil] },
      );
    }
  }

  /** A success clears the counts of the name from this client; the address and the all-devices count keep theirs, or one valid account would reset them. */
  async succeeded(a: Attempt): Promise<void> {
    const own = a.device !== null ? `device:${a.device}` : `user-address:${a.username.toLowerCase()}\n${a.address}`;
    await this.db.query('DELETE FROM login_throttle WHERE key = $1', { bind: [own] });
  }
}
