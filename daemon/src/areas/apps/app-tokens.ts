import { randomBytes } from 'node:crypto';
import { appTokenMinutes, type AppToken, type AppTokenKind } from '../../../../shared/src/api/apps.ts';
import type { Clock } from '../../core/clock.ts';

interface Issued {
  kind: AppTokenKind;
  userId: number;
  sessionId: string;
  appId: string;
  instanceId: string;
  expiresAt: number;
}

const validMs = appTokenMinutes * 60_000;
/** Tokens one session may hold at once: windows ask again every few minutes, so old ones pile up only until they expire. */
const perSessionLimit = 500;

/**
 * App tokens: random, held only in memory (a restart ends them all; windows ask again), each
 * bound to the user, the session, the app and the window it was issued for. The window binding
 * holds both ways: a call must name the token's window (a token lifted from one window is no
 * token of another), and the window's close ends its tokens.
 */
export class AppTokens {
  private readonly tokens = new Map<string, Issued>();

  constructor(private readonly clock: Clock) {}

  issue(claims: Omit<Issued, 'expiresAt'>): AppToken {
    this.sweep();
    const mine = [...this.tokens.entries()].filter(([, t]) => t.sessionId === claims.sessionId);
    // The oldest go first when a session asks for more than it can use.
    for (const [token] of mine.slice(0, Math.max(0, mine.length - perSessionLimit + 1))) this.tokens.delete(token);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = this.clock.now() + validMs;
    this.tokens.set(token, { ...claims, expiresAt });
    return { token, kind: claims.kind, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** The claims of a live token of this kind issued for this window; null for an unknown, expired, ended or another window's one. */
  find(token: string, kind: AppTokenKind, instanceId: string): Issued | null {
    const found = this.tokens.get(token);
    if (!found || found.kind !== kind || found.instanceId !== instanceId) return null;
    if (found.expiresAt <= this.clock.now()) {
      this.tokens.delete(token);
      return null;
    }
    return found;
  }

  /** Sign-out and every other end of a session. */
  endSession(sessionId: string): void {
    for (const [token, t] of this.tokens) if (t.sessionId === sessionId) this.tokens.delete(token);
  }

  /** The desktop closed the window: its tokens of this session end (another session's window of the same id is another window). */
  endWindow(sessionId: string, appId: string, instanceId: string): void {
    for (const [token, t] of this.tokens) if (t.sessionId === sessionId && t.appId === appId && t.instanceId === instanceId) this.tokens.delete(token);
  }

  /** Disable and uninstall. */
  endApp(appId: string): void {
    for (const [token, t] of this.tokens) if (t.appId === appId) this.tokens.delete(token);
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const [token, t] of this.tokens) if (t.expiresAt <= now) this.tokens.delete(token);
  }
}
