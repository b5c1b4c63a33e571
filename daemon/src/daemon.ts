import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Express } from 'express';
import type { Sequelize } from 'sequelize';
import { api } from '../../shared/src/api/index.ts';
import { AuthService } from './areas/auth/auth.service.ts';
import { authHandlers } from './areas/auth/auth.routes.ts';
import { initSessionModel } from './areas/auth/session.model.ts';
import { SqliteSessionStore } from './areas/auth/session-store.ts';
import { SystemService } from './areas/system/system.service.ts';
import { systemHandlers } from './areas/system/system.routes.ts';
import { ensureInitialAdmin } from './areas/users/initial-admin.ts';
import { initUserModel } from './areas/users/user.model.ts';
import { UsersService } from './areas/users/users.service.ts';
import { loadConfig, type Config } from './config/config.ts';
import { createLogger, type Logger } from './core/logger.ts';
import { secretFile } from './core/secret-file.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createHttpApp, sessionMiddleware } from './http/app.ts';
import { registerArea, type RouteDeps } from './http/register-routes.ts';

export interface Daemon {
  config: Readonly<Config>;
  app: Express;
  server: Server;
  logger: Logger;
  db: Sequelize;
  /** The address the server listens on once started (port 0 becomes the real port). */
  url(): string;
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface DaemonOptions {
  config?: Partial<Config>;
  env?: NodeJS.ProcessEnv;
}

const sessionIdleMs = 2 * 60 * 60 * 1000;

/**
 * The composition root: builds everything in order and hands each service the narrow
 * dependencies it needs. Nothing listens until start().
 */
export async function createDaemon(options: DaemonOptions = {}): Promise<Daemon> {
  const config = loadConfig(options.config, options.env);
  const startedAt = Date.now();
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const logger = createLogger({ level: config.logLevel, console: config.logToConsole, sinks: [] });

  const db = await openDatabase(path.join(config.dataDir, 'cellar.sqlite'), logger);
  await migrate(db, logger);
  const userRows = initUserModel(db);
  const sessionRows = initSessionModel(db);

  const users = new UsersService({ users: userRows });
  if (config.mode === 'development') await ensureInitialAdmin(userRows, config.dataDir, config.adminPassword, logger);
  const sessionStore = new SqliteSessionStore(sessionRows, sessionIdleMs);
  const auth = new AuthService({ users, logger });
  const system = new SystemService({ mode: config.mode, startedAt });

  const routeDeps: RouteDeps = { resolvePrincipal: (id) => users.principal(id), validateResponses: config.validateResponses };
  const httpOptions = {
    logger,
    sessionStore,
    sessionSecret: secretFile(path.join(config.dataDir, 'session-secret')),
    sessionIdleMs,
    secureCookies: false,
    webDir: config.webDir,
    mountApi: (router: import('express').Router) => {
      registerArea(router, api.auth, authHandlers(auth), routeDeps);
      registerArea(router, api.system, systemHandlers(system), routeDeps);
    },
  };
  const sessions = sessionMiddleware(httpOptions);
  const app = createHttpApp(httpOptions, sessions);
  const server = createServer(app);

  const url = (): string => {
      const address = server.address() as AddressInfo | null;
      if (!address) throw new Error('the daemon is not listening');
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${host}:${address.port}`;
  };

  return {
    config,
    app,
    server,
    logger,
    db,
    url,
    async start() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      logger.info('listening', { component: 'daemon', url: url(), mode: config.mode });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
