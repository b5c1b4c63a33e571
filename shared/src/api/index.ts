import { appApiRoutes } from './app-api.ts';
import { appsRoutes } from './apps.ts';
import { authRoutes } from './auth.ts';
import { backupRoutes } from './backup.ts';
import { fileOperationsRoutes } from './file-operations.ts';
import { fileVersionsRoutes } from './file-versions.ts';
import { homesRoutes } from './homes.ts';
import { installerRoutes } from './installer.ts';
import { filesRoutes } from './files.ts';
import { firstRunRoutes } from './first-run.ts';
import { groupsRoutes } from './groups.ts';
import { permissionsRoutes } from './permissions.ts';
import { proxyRoutes } from './proxy.ts';
import { usersRoutes } from './users.ts';
import { desktopRoutes } from './desktop.ts';
import { docsRoutes } from './docs.ts';
import { jobsRoutes } from './jobs.ts';
import { logsRoutes } from './logs.ts';
import { notificationsRoutes } from './notifications.ts';
import type { RouteTable } from './route.ts';
import { sharesRoutes } from './shares.ts';
import { storageRoutes } from './storage.ts';
import { storeRoutes } from './store.ts';
import { systemRoutes } from './system.ts';
import { systemOverviewRoutes } from './system-overview.ts';
import { systemTimeRoutes } from './system-time.ts';
import { systemNetworkRoutes } from './system-network.ts';
import { thumbnailsRoutes } from './thumbnails.ts';
import { tlsRoutes } from './tls.ts';
import { trashRoutes } from './trash.ts';
import { updatesRoutes } from './updates.ts';

/** Every area's route table, by area. Add an area here once and it is served, documented and typed. */
export const api = {
  auth: authRoutes,
  files: filesRoutes,
  groups: groupsRoutes,
  permissions: permissionsRoutes,
  users: usersRoutes,
  desktop: desktopRoutes,
  docs: docsRoutes,
  jobs: jobsRoutes,
  logs: logsRoutes,
  notifications: notificationsRoutes,
  shares: sharesRoutes,
  storage: storageRoutes,
  system: systemRoutes,
  systemTime: systemTimeRoutes,
  systemOverview: systemOverviewRoutes,
  thumbnails: thumbnailsRoutes,
  fileOperations: fileOperationsRoutes,
  trash: trashRoutes,
  homes: homesRoutes,
  fileVersions: fileVersionsRoutes,
  apps: appsRoutes,
  appApi: appApiRoutes,
  firstRun: firstRunRoutes,
  tls: tlsRoutes,
  backup: backupRoutes,
  systemNetwork: systemNetworkRoutes,
  proxy: proxyRoutes,
  store: storeRoutes,
  updates: updatesRoutes,
  installer: installerRoutes,
} satisfies Record<string, RouteTable>;

export type Api = typeof api;
export type AreaName = keyof Api;
