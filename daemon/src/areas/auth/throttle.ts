import { ProblemError } from '../../core/problem-error.ts';
import type { ThrottleRow } from './totp.model.ts';

export interface ThrottlePolicy {
  /** Failures per user name before it is locked. */
  perUser: number;
  /** Failures per client address before it is locked (higher: several people may share one). */
  perAddress: number;
  /** Failures older than this are forgotten. */
  windowMs: number;
  /** First lock; it doubles with every further failure up to maxLockMs. */
  lockMs: number;
  maxLockMs: number;
}

export const defaultThrottlePolicy: ThrottlePolicy = { perUser: 5, perAddress: 20, windowMs: 15 * 60_000, lockMs: 30_000, maxLockMs: 15 * 60_000 };

/**
 * Sign-in throttling kept in the database, so a restart does not reset it. Keyed by the
 * user name as typed (known or not, so the answer says nothing about which names exist)
 * and by client address.
 */
export class LoginThrottle {
  constructor(
    private readonly rows: typeof ThrottleRow,
    private readonly policy: ThrottlePolicy = defaultThrottlePolicy,
    private readonly now: () => number = Date.now,
  ) {}

  private keys(username: string, address: string): [string, number][] {
    return [
      [`user:${username.toLowerCase()}`, this.policy.perUser],
      [`ip:${address}`, this.policy.perAddress],
    ];
  }

  /** Throws 429 auth.login.throttled with Retry-After while either key is locked. */
  async check(username: string, address: string): Promise<void> {
    const now = this.now();
    const rows = await this.rows.findAll({ where: { key: this.keys(username, address).map(([k]) => k) } });
    const until = Math.max(0, ...rows.map((r) => r.lockedUntil));
    if (until > now) {
      const retryAfter = Math.ceil((until - now) / 1000);
      throw new ProblemError('auth.login.throttled', { retryAfter }, { headers: { 'Retry-After': String(retryAfter) } });
    }
  }

  async failed(username: string, address: string): Promise<void> {
    const now = this.now();
    for (const [key, limit] of this.keys(username, address)) {
      const row = await this.rows.findByPk(key);
      const fresh = !row || now - row.firstAt > this.policy.windowMs;
      const failures = fresh ? 1 : row.failures + 1;
      const firstAt = fresh ? now : row.firstAt;
      const over = failures - limit;
      const lockedUntil = over >= 0 ? now + Math.min(this.policy.lockMs * 2 ** Math.min(over, 20), this.policy.maxLockMs) : 0;
      await this.rows.upsert({ key, failures, firstAt, lockedUntil });
    }
  }

  /** A success clears the user name's count; the address keeps its own, or one valid account would reset it. */
  async succeeded(username: string): Promise<void> {
    await this.rows.destroy({ where: { key: `user:${username.toLowerCase()}` } });
  }
}
