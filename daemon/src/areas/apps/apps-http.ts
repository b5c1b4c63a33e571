import { api } from '../../../../shared/src/api/index.ts';
import type { Principal, PrincipalResolver } from '../../core/principal.ts';
import { tableRoutes, type AreaMount, type TableRoutes } from '../../http/area-routes.ts';
import type { RouteDeps } from '../../http/register-routes.ts';
import type { AppVolumes } from '../../host/app-volumes/app-volumes.ts';
import type { LogsService } from '../logs/logs.service.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import { appApiHandlers } from './app-api.routes.ts';
import { appApiCors, appFrontends, frontendsPath } from './app-frontends.ts';
import type { AppFiles } from './app-files.ts';
import type { AppIcons } from './app-icons.ts';
import type { AppTokens } from './app-tokens.ts';
import type { AppModels } from './app.model.ts';
import { appsHandlers } from './apps.routes.ts';
import { backendPath, backendProxy } from './backend-proxy.ts';
import type { BackendSupervisor } from './backend-supervisor.ts';
import type { InstalledAppsService } from './installed-apps.service.ts';
import type { PackagesService } from './packages.service.ts';
import type { StorageMappings } from './storage-mappings.ts';

/** What reading an app token needs of the apps area. */
export interface TokenParts {
  tokens: AppTokens;
  apps: InstalledAppsService;
}

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
  apps: TokenParts,
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
  resolveToken: ReturnType<typeof appTokenResolver>;
  notifications: Pick<NotificationsService, 'notify'>;
  logs: Pick<LogsService, 'appBatch'>;
}

/** The apps area's parts its routes call. */
export interface AppsHttpParts extends TokenParts {
  packages: PackagesService;
  icons: AppIcons;
  mappings: StorageMappings;
  files: AppFiles;
  models: AppModels;
  volumes: AppVolumes;
  backends: BackendSupervisor;
}

/** Everything apps answer over HTTP: the admin API, the API for apps, frontends and the way to backends. */
export function appsRoutes(apps: AppsHttpParts, deps: AppsHttpDeps): (TableRoutes | AreaMount)[] {
  return [
    tableRoutes(api.apps, appsHandlers(apps.packages, apps.apps, apps.icons, apps.mappings)),
    (root) => root.use('/api/app', appApiCors),
    tableRoutes(api.appApi, appApiHandlers({ apps: apps.apps, notifications: deps.notifications, logs: deps.logs, files: apps.files })),
    (root) => {
      root.use(frontendsPath, appFrontends({ models: apps.models, volumes: apps.volumes }));
      root.use(backendPath, appApiCors);
      root.use(
        backendPath,
        backendProxy({
          resolveBackendToken: (token, instanceId) => deps.resolveToken(token, 'backend', instanceId),
          socketOf: (appId) => apps.backends.socketOf(appId),
        }),
      );
    },
  ];
}
