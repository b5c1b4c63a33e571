import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Express, type RequestHandler, type Router } from 'express';
import session from 'express-session';
import type { Logger } from '../core/logger.ts';
import { ProblemError } from '../core/problem-error.ts';
import { problemHandler } from './problem.ts';
import { requestId } from './request-id.ts';
import { securityHeaders } from './security-headers.ts';
import './session-types.ts';

export const sessionCookieName = 'box.sid';

export interface HttpAppOptions {
  logger: Logger;
  sessionStore: session.Store;
  sessionSecret: string;
  secureCookies: boolean;
  webDir: string | null;
  /** Mounts every area's routes on the API router. */
  mountApi: (router: Router) => void;
}

/** The session middleware is shared with the Socket.IO handshake, so it is built once here. */
export function sessionMiddleware(options: HttpAppOptions): RequestHandler {
  return session({
    name: sessionCookieName,
    secret: options.sessionSecret,
    store: options.sessionStore,
    resave: false,
    saveUninitialized: false,
    // The idle lifetime is kept on the server (the store's expiry, renewed by each request's touch);
    // the cookie lives as long as the browser session. Rolling a Max-Age cookie would sign and
    // send a Set-Cookie on every answer for nothing.
    rolling: false,
    cookie: { httpOnly: true, sameSite: 'strict', secure: options.secureCookies },
  });
}

function webDesktop(webDir: string): Router {
  const router = express.Router();
  // Vite names built assets by content hash: they never change, so browsers keep them for a year.
  router.use('/assets', express.static(path.join(webDir, 'assets'), { immutable: true, maxAge: '365d', index: false }));
  router.use(express.static(webDir, { index: false, maxAge: 0 }));
  // Every other GET outside /api is a desktop URL (windows are URLs): the page decides.
  router.get(/^\/(?!api\/|api$|socket\.io\/).*/, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(path.join(webDir, 'index.html'));
  });
  return router;
}

export function createHttpApp(options: HttpAppOptions, sessions: RequestHandler): Express {
  const app = express();
  app.disable('x-powered-by');
  // Hashing every JSON answer for a weak ETag costs each request; answers that have versions
  // (desktop items, layouts, file content) set their own strong ETag, and static files theirs.
  app.disable('etag');
  // The client is the connection's address: nothing the box runs forwards requests to the daemon, and
  // any local process (an app's backend) could name another address in X-Forwarded-For and
  // choose whom the sign-in's throttle counts. The proxy's visitors come through proxy.routes.ts.
  app.set('trust proxy', false);
  app.set('query parser', 'extended');
  app.use(requestId());
  app.use(securityHeaders(options.secureCookies));
  const api = express.Router();
  api.use('/api', sessions);
  options.mountApi(api);
  app.use(api);
  app.use('/api', (req, _res, next) =>
    next(new ProblemError('request.route.not_found', undefined, { detail: `No endpoint ${req.method} ${req.originalUrl.split('?')[0]}` })),
  );
  if (options.webDir && existsSync(path.join(options.webDir, 'index.html'))) app.use(webDesktop(options.webDir));
  app.use((req, _res, next) => next(new ProblemError('request.route.not_found', undefined, { detail: `Nothing at ${req.method} ${req.path}` })));
  app.use(problemHandler(options.logger));
  return app;
}
