import type { Request } from 'express';
import { csrfSync } from 'csrf-sync';
import { ProblemError } from '../core/problem-error.ts';

const csrf = csrfSync({
  getTokenFromRequest: (req) => req.get('X-CSRF-Token'),
  getTokenFromState: (req) => req.session.csrfToken,
  storeTokenInState: (req, token) => {
    req.session.csrfToken = token;
  },
});

/** The session's synchronizer token, made once per session. */
export function csrfTokenOf(req: Request): string {
  return req.session.csrfToken ?? csrf.generateToken(req);
}

export function assertCsrf(req: Request): void {
  if (!req.session.csrfToken || !csrf.isRequestValid(req)) throw new ProblemError('auth.csrf.invalid');
}

/**
 * The sign-in requests have no session and so no token yet: they refuse a browser's
 * cross-site request instead, by Origin (or Sec-Fetch-Site where Origin is absent).
 */
export function assertSameOrigin(req: Request): void {
  const origin = req.get('Origin');
  if (origin) {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      throw new ProblemError('auth.origin.invalid');
    }
    if (host !== req.get('Host')) throw new ProblemError('auth.origin.invalid');
    return;
  }
  if (req.get('Sec-Fetch-Site') === 'cross-site') throw new ProblemError('auth.origin.invalid');
}
