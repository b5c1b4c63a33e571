import { randomBytes } from 'node:crypto';
import { appTokenMinutes, type AppToken, type AppTokenKind } from '../../../../shared/src/api/apps/apps.ts';
import type { Clock } from '../../core/clock.ts';
import { ProblemError } from '../../core/problem-error.ts';

interface Issued {
  kind: AppTokenKind;
  userId: number;
  sessionId: string;
  appId: string;
  instanceId: string;
  expiresAt: number;
}

/** How many live tokens the map may hold; a caller at a limit is refused, never another window's token taken. */
export interface AppTokenLimits {
  /** Of one kind for one window: a window asks again every few minutes, so only a runaway one reaches it; its own oldest make room. */
  perWindow: number;
  /** Of one user across all their sessions and windows. */
  perUser: number;
  /** Of the whole box. */
  total: number;
}

const validMs = appTokenMinutes * 60_000;
const defaultLimits: AppTokenLimits = { perWindow: 16, perUser: 1000, total: 50_000 };

const windowOf = (t: Omit<Issued, 'expiresAt'>) => JSON.stringify([t.sessionId, t.appId, t.instanceId, t.kind]);

/**
 * App tokens: random, held only in memory (a restart ends them all; windows ask again), each
 * bound to the user, the session, the app and the window it was issued for. The window binding
 * holds both ways: a call must name the token's window (a token lifted from one window is no
 * token of another), and the window's close ends its tokens. Memory is bounded per window, per
 * user and in all; expired tokens go first, and a window only ever makes room among its own.
 */
export class AppTokens {
  /** In issue order, which is expiry order: every token lives equally long. */
  private readonly tokens = new Map<string, Issued>();
  /** The live tokens of each window and kind, oldest first. */
  private readonly windows = new Map<string, Set<string>>();
  private readonly perUser = new Map<number, number>();
  private readonly limits: AppTokenLimits;

  constructor(
    private readonly clock: Clock,
    limits: Partial<AppTokenLimits> = {},
  ) {
    this.limits = { ...defaultLimits, ...limits };
  }

  issue(claims: Omit<Issued, 'expiresAt'>): AppToken {
    this.sweep();
    const key = windowOf(claims);
    const window = this.windows.get(key);
    if (window) {
      for (const old of window) {
        if (window.size < this.limits.perWindow) break;
        this.drop(old);
      }
    }
    if ((this.perUser.get(claims.userId) ?? 0) >= this.limits.perUser || this.tokens.size >= this.limits.total) {
      throw new ProblemError('app.token.limit');
    }
    const token = randomBytes(32).toString('base64url');
    const expiresAt = this.clock.now() + validMs;
    this.tokens.set(token, { ...claims, expiresAt });
    this.windows.set(key, (this.windows.get(key) ?? new Set()).add(token));
    this.perUser.set(claims.userId, (this.perUser.get(claims.userId) ?? 0) + 1);
    return { token, kind: claims.kind, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** The claims of a live token of this kind issued for this window; null for an unknown, expired, ended or another window's one. */
  find(token: string, kind: AppTokenKind, instanceId: string): Issued | null {
    const found = this.tokens.get(token);
    if (!found || found.kind !== kind || found.instanceId !== instanceId) return null;
    if (found.expiresAt <= this.clock.now()) {
      this.drop(token);
      return null;
    }
    return found;
  }

  /** Sign-out and every other end of a session. */
  endSession(sessionId: string): void {
    for (const [token, t] of this.tokens) if (t.sessionId === sessionId) this.drop(token);
  }

  /** The desktop closed the window: its tokens of this session end (another session's window of the same id is another window). */
  endWindow(sessionId: string, appId: string, instanceId: string): void {
    for (const [token, t] of this.tokens) if (t.sessionId === sessionId && t.appId === appId && t.instanceId === instanceId) this.drop(token);
  }

  /** Disable and uninstall. */
  endApp(appId: string): void {
    for (const [token, t] of this.tokens) if (t.appId === appId) this.drop(token);
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const [token, t] of this.tokens) {
      if (t.expiresAt > now) break;
      this.drop(token);
    }
  }

  private drop(token: string): void {
    const t = this.tokens.get(token);
    if (!t) return;
    this.tokens.delete(token);
    const key = windowOf(t);
    const window = this.windows.get(key);
    window?.delete(token);
    if (window?.size === 0) this.windows.delete(key);
    const count = (this.perUser.get(t.userId) ?? 1) - 1;
    if (count > 0) this.perUser.set(t.userId, count);
    else this.perUser.delete(t.userId);
  }
}
