import path from 'node:path';
import type { Router } from 'express';
import type session from 'express-session';
import { api } from '../../../shared/src/api/index.ts';
import type { Config } from '../config/config.ts';
import type { Logger } from '../core/logger.ts';
import { product } from '../core/product.ts';
import { secretFile } from '../core/secret-file.ts';
import { createHttpApp, sessionMiddleware } from './app.ts';
import { docsHandlers } from './openapi/docs-handlers.ts';
import { mountRoutes, tableRoutes, type AreaMount, type TableRoutes } from './area-routes.ts';
import type { RouteDeps } from './register-routes.ts';

export interface HttpAreaOptions extends Omit<RouteDeps, 'validateResponses'> {
  config: Pick<Config, 'dataDir' | 'https' | 'webDir' | 'validateResponses'>;
  logger: Logger;
  sessionStore: session.Store;
  /** The areas' routes in matching order; the OpenAPI document and its page follow them. */
  routes: readonly (TableRoutes | AreaMount)[];
}

/**
 * The daemon's HTTP side: the deps every route table is registered with, the session middleware
 * (built once: the Socket.IO handshake shares it) and the app serving the API, its documentation
 * and the web desktop.
 */
export function createHttpArea(o: HttpAreaOptions) {
  const routeDeps: RouteDeps = { resolvePrincipal: o.resolvePrincipal, validateResponses: o.config.validateResponses, resolveAppToken: o.resolveAppToken };
  const options = {
    logger: o.logger,
    sessionStore: o.sessionStore,
    // In the data directory, so sessions outlive a restart.
    sessionSecret: secretFile(path.join(o.config.dataDir, 'session-secret')),
    secureCookies: o.config.https,
    webDir: o.config.webDir,
    mountApi: (router: Router) => {
      const docs = tableRoutes(api.docs, docsHandlers({ tables: api, title: product.name, version: product.version, logger: o.logger }));
      mountRoutes(router, routeDeps, [...o.routes, docs]);
    },
  };
  const sessions = sessionMiddleware(options);
  return { routeDeps, sessions, app: createHttpApp(options, sessions) };
}
