import express, { type Request, type RequestHandler, type Router } from 'express';
import http from 'node:http';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { appCredentialsOf } from '../../http/app-credentials.ts';
import { answeredHeaders } from './backend-answer.ts';

/** Where the desktop reaches an app's backend: `/api/app-backend/<appId>/<path>`, with a backend token. */
export const backendPath = '/api/app-backend';

export interface BackendProxyDeps {
  /** The user and app behind a live backend token presented as its window (session alive, app on, user allowed), or null. */
  resolveBackendToken(token: string, instanceId: string): Promise<{ principal: Principal; appId: string; instanceId: string } | null>;
  socketOf(appId: string): string | null;
}

/** Headers that belong to one hop, and the caller's credentials, which a backend never sees. */
const dropped = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'cookie', 'authorization']);

/**
 * The daemon's own headers, in any spelling: CGI and WSGI servers read `X_Cellar_User_Id` as
 * `X-Cellar-User-Id` (both become HTTP_X_CELLAR_USER_ID), so a client's must never pass.
 */
const isCellarHeader = (name: string) => name.toLowerCase().replaceAll('_', '-').startsWith('x-cellar-');

function forwardedHeaders(req: Request, who: { principal: Principal; instanceId: string }): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) if (!dropped.has(name) && !isCellarHeader(name)) headers[name] = value;
  // What the box checked, for the backend to rely on: only the daemon can reach its socket.
  headers['x-cellar-user-id'] = String(who.principal.id);
  headers['x-cellar-username'] = who.principal.username;
  headers['x-cellar-language'] = who.principal.language;
  headers['x-cellar-instance'] = who.instanceId;
  headers['x-request-id'] = String(req.res?.getHeader('X-Request-Id') ?? '');
  return headers;
}

/**
 * Passes a window's requests to its app's backend over the backend's Unix socket, once the
 * backend token is checked against the window the request names; a host token, the session
 * cookie, another app's or another window's token get nowhere.
 */
export function backendProxy(deps: BackendProxyDeps): Router {
  const router = express.Router();
  const pass: RequestHandler = async (req, res, next) => {
    const appId = String(req.params.appId);
    const credentials = appCredentialsOf(req);
    const who = credentials ? await deps.resolveBackendToken(credentials.token, credentials.instanceId) : null;
    if (!who || who.appId !== appId) throw new ProblemError('app.token.invalid');
    const socketPath = deps.socketOf(appId);
    if (!socketPath) throw new ProblemError('app.backend.unavailable', { appId });
    const rest = ([] as string[]).concat((req.params as { path?: string | string[] }).path ?? []).join('/');
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    const upstream = http.request({ socketPath, method: req.method, path: `/${rest}${query}`, headers: forwardedHeaders(req, who) }, (answer) => {
      for (const [name, value] of answeredHeaders(answer.headers, appId, rest)) res.setHeader(name, value);
      res.status(answer.statusCode ?? 502);
      answer.pipe(res);
    });
    upstream.once('error', () => {
      if (!res.headersSent) next(new ProblemError('app.backend.unavailable', { appId }));
      else res.destroy();
    });
    req.pipe(upstream);
  };
  router.all('/:appId/{*path}', pass);
  return router;
}
