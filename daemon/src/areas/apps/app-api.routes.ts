import type { appApiRoutes } from '../../../../shared/src/api/app-api.ts';
import { appMessageType } from '../../../../shared/src/api/notifications.ts';
import { currentContext } from '../../core/request-context.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { AreaHandlers, AppTokenClaims } from '../../http/handler.ts';
import type { LogsService } from '../logs/logs.service.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import type { InstalledAppsService } from './installed-apps.service.ts';

export interface AppApiDeps {
  apps: InstalledAppsService;
  notifications: Pick<NotificationsService, 'notify'>;
  logs: Pick<LogsService, 'appBatch'>;
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
  };
}
