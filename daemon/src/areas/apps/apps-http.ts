import type { Router } from 'express';
import { api } from '../../../../shared/src/api/index.ts';
import type { Principal, PrincipalResolver } from '../../core/principal.ts';
import { registerArea, type RouteDeps } from '../../http/register-routes.ts';
import type { LogsService } from '../logs/logs.service.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import { appApiHandlers } from './app-api.routes.ts';
import { appApiCors, appFrontends, frontendsPath } from './app-frontends.ts';
import type { AppsArea } from './apps-area.ts';
import { appsHandlers } from './apps.routes.ts';
import { backendPath, backendProxy } from './backend-proxy.ts';

export interface ResolvedToken {
  principal: Principal;
  appId: string;
  instanceId: string;
}

/**
 * Reads an app token as it is now: a live token of the kind, issued for the window the call
 * names, of a session still alive, of a user still active who may still use the app, which is
 * still on. Checked on every call.
 */
export function appTokenResolver(
  apps: AppsArea,
  sessionAlive: (sessionId: string) => Promise<boolean>,
  principals: PrincipalResolver,
): (token: string, kind: 'host' | 'backend', instanceId: string) => Promise<ResolvedToken | null> {
  return async (token, kind, instanceId) => {
    const claims = apps.tokens.find(token, kind, instanceId);
    if (!claims || !(await sessionAlive(claims.sessionId))) return null;
    const found = await principals(claims.userId);
    const principal = found ? { ...found, sessionId: claims.sessionId } : null;
    if (!principal || !(await apps.apps.mayUse(principal, claims.appId))) return null;
    return { principal, appId: claims.appId, instanceId: claims.instanceId };
  };
}

/** The route deps' resolveAppToken: a host token presented by its window, as the user and the claims it carries. */
export function hostTokenResolver(resolveToken: ReturnType<typeof appTokenResolver>): NonNullable<RouteDeps['resolveAppToken']> {
  return async (token, instanceId) => {
    const found = await resolveToken(token, 'host', instanceId);
    return found && { principal: found.principal, claims: { appId: found.appId, instanceId: found.instanceId } };
  };
}

export interface AppsHttpDeps {
  routeDeps: RouteDeps;
  resolveToken: ReturnType<typeof appTokenResolver>;
  notifications: Pick<NotificationsService, 'notify'>;
  logs: Pick<LogsService, 'appBatch'>;
}

/** Mounts everything apps answer over HTTP: the admin API, the API for apps, frontends and the way to backends. */
export function mountApps(router: Router, apps: AppsArea, deps: AppsHttpDeps): void {
  registerArea(router, api.apps, appsHandlers(apps.packages, apps.apps, apps.icons, apps.mappings), deps.routeDeps);
  router.use('/api/app', appApiCors);
  registerArea(router, api.appApi, appApiHandlers({ apps: apps.apps, notifications: deps.notifications, logs: deps.logs, files: apps.files }), deps.routeDeps);
  router.use(frontendsPath, appFrontends({ models: apps.models, volumes: apps.volumes }));
  router.use(backendPath, appApiCors);
  router.use(
    backendPath,
    backendProxy({
      resolveBackendToken: (token, instanceId) => deps.resolveToken(token, 'backend', instanceId),
      socketOf: (appId) => apps.backends.socketOf(appId),
    }),
  );
}
