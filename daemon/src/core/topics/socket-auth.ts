import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Session, SessionData } from 'express-session';
import type { Socket } from 'socket.io';
import type { PrincipalResolver } from '../principal.ts';
import type { Logger } from '../logger.ts';
import { ProblemError } from '../problem-error.ts';
import { messageId, problemOf } from './topic-messages.ts';

/** The handshake request after express-session has run on it. */
export type SessionRequest = IncomingMessage & { session?: Session & Partial<SessionData>; sessionID?: string; _query?: Record<string, string> };

type EngineMiddleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * Runs the express-session middleware on the handshake request only: later polling
 * requests of an open connection carry the engine's `sid` and need no session lookup.
 */
export function onHandshakeOnly(sessions: RequestHandler): EngineMiddleware {
  return (req, res, next) => {
    if ((req as SessionRequest)._query?.sid !== undefined) return next();
    // express-session only reads url, headers and the response's header hooks, which plain Node objects have.
    (sessions as unknown as EngineMiddleware)(req, res, next);
  };
}

/**
 * A browser page of another origin on the same site (another port of the box) would
 * send the strict session cookie along, so the Origin must name this host.
 */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return req.headers['sec-fetch-site'] !== 'cross-site';
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/** A refused handshake: the client's `connect_error` carries the problem details as `data`. */
function refusal(err: unknown, logger: Logger): Error & { data: unknown } {
  const problem = problemOf(err, messageId(), logger);
  return Object.assign(new Error(problem.title), { data: problem });
}

export interface SocketIdentity {
  userId: number;
  sessionId: string;
}

/**
 * Socket.IO middleware: a connection needs a signed-in session of an active user;
 * the principal is resolved fresh, so a deactivated user is refused.
 */
export function authenticateSocket(resolvePrincipal: PrincipalResolver, logger: Logger, accept: (socket: Socket, identity: SocketIdentity) => void) {
  return (socket: Socket, next: (err?: Error) => void): void => {
    const req = socket.request as SessionRequest;
    const check = async (): Promise<SocketIdentity> => {
      if (!sameOrigin(req)) throw new ProblemError('auth.origin.invalid');
      const userId = req.session?.userId;
      const principal = userId === undefined ? null : await resolvePrincipal(userId);
      if (!principal || !req.sessionID) throw new ProblemError('auth.session.required');
      return { userId: principal.id, sessionId: req.sessionID };
    };
    check().then(
      (identity) => {
        accept(socket, identity);
        next();
      },
      (err: unknown) => {
        logger.debug('socket refused', { component: 'topics', code: err instanceof ProblemError ? err.code : 'server.internal.error' });
        next(refusal(err, logger));
      },
    );
  };
}
