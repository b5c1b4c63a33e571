import type { appApiRoutes } from '../../../../shared/src/api/apps/app-api.ts';
import { appMessageType } from '../../../../shared/src/api/notifications/notifications.ts';
import { currentContext } from '../../core/request-context.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { AreaHandlers, AppTokenClaims } from '../../http/handler.ts';
import type { LogsService } from '../logs/logs.service.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import { sendFile } from '../files/content-response.ts';
import type { AppFiles } from './app-files.ts';
import type { InstalledAppsService } from './installed-apps.service.ts';

export interface AppApiDeps {
  apps: InstalledAppsService;
  notifications: Pick<NotificationsService, 'notify'>;
  logs: Pick<LogsService, 'appBatch'>;
  files: AppFiles;
}

/** Content-Length as a number; null for a chunked body. */
function declaredLength(header: string | undefined): number | null {
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : null;
}

/** Mapped storage is the files permission's: an app without it reaches none. */
async function assertFiles(deps: AppApiDeps, user: Parameters<InstalledAppsService['self']>[0], appId: string): Promise<void> {
  if (!(await deps.apps.self(user, appId)).permissions.includes('files'))
    throw new ProblemError('auth.permission.denied', undefined, { detail: `The app ${appId} does not hold the files permission` });
}

/** Routes of access `app` always carry the token's claims; this says so to the type checker. */
function claimsOf(app: AppTokenClaims | null): AppTokenClaims {
  if (!app) throw new ProblemError('app.token.invalid');
  return app;
}

/** The API for installed apps (/api/app/**): every call acts for the token's user as the token's app, nothing else. */
export function appApiHandlers(deps: AppApiDeps): AreaHandlers<typeof appApiRoutes> {
  return {
    self: ({ user, app }) => deps.apps.self(user, claimsOf(app).appId),
    notify: async ({ user, app, body }) => {
      const { appId } = claimsOf(app);
      const self = await deps.apps.self(user, appId);
      if (!self.permissions.includes('notifications'))
        throw new ProblemError('auth.permission.denied', undefined, { detail: `The app ${appId} does not hold the notifications permission` });
      return deps.notifications.notify(user.id, { type: appMessageType, appId, title: body.title, body: body.body, level: body.level, link: body.link });
    },
    logs: async ({ user, app, body }) => {
      const { appId } = claimsOf(app);
      const self = await deps.apps.self(user, appId);
      return deps.logs.appBatch(appId, user.id, currentContext()?.requestId ?? null, body, self.logLevel === 'debug');
    },
    listFiles: async ({ user, app, params, query }) => {
      const { appId } = claimsOf(app);
      await assertFiles(deps, user, appId);
      return deps.files.list(user, appId, params.storageId, query);
    },
    readFile: async ({ user, app, params, query, req, res }) => {
      const { appId } = claimsOf(app);
      await assertFiles(deps, user, appId);
      await sendFile(req, res, await deps.files.open(user, appId, params.storageId, query.path), false);
    },
    writeFile: async ({ user, app, params, query, body, req }) => {
      const { appId } = claimsOf(app);
      await assertFiles(deps, user, appId);
      return deps.files.write(user, appId, params.storageId, query, body, declaredLength(req.get('Content-Length')));
    },
  };
}
