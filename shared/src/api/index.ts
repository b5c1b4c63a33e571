import { appApiRoutes } from './apps/app-api.ts';
import { appsRoutes } from './apps/apps.ts';
import { authRoutes } from './identity/auth.ts';
import { backupRoutes } from './backup/backup.ts';
import { fileOperationsRoutes } from './files/operations.ts';
import { fileVersionsRoutes } from './storage/file-versions.ts';
import { homesRoutes } from './storage/homes.ts';
import { installerRoutes } from './installer/installer.ts';
import { filesRoutes } from './files/files.ts';
import { firstRunRoutes } from './system/first-run.ts';
import { groupsRoutes } from './identity/groups.ts';
import { permissionsRoutes } from './identity/permissions.ts';
import { proxyRoutes } from './proxy/proxy.ts';
import { replicationTasksRoutes } from './replication/tasks.ts';
import { replicationRoutes } from './replication/replication.ts';
import { usersRoutes } from './identity/users.ts';
import { desktopRoutes } from './desktop/desktop.ts';
import { docsRoutes } from './system/docs.ts';
import { jobsRoutes } from './jobs/jobs.ts';
import { logsRoutes } from './logs/logs.ts';
import { notificationsRoutes } from './notifications/notifications.ts';
import type { RouteTable } from './route.ts';
import { sharesRoutes } from './shares/shares.ts';
import { storageRoutes } from './storage/storage.ts';
import { storeRoutes } from './store/store.ts';
import { systemRoutes } from './system/system.ts';
import { systemOverviewRoutes } from './system/overview.ts';
import { systemTimeRoutes } from './system/time.ts';
import { systemNetworkRoutes } from './network/network.ts';
import { thumbnailsRoutes } from './files/thumbnails.ts';
import { tlsRoutes } from './tls/tls.ts';
import { trashRoutes } from './files/trash.ts';
import { updatesRoutes } from './updates/updates.ts';

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
  replicationTasks: replicationTasksRoutes,
  replication: replicationRoutes,
} satisfies Record<string, RouteTable>;

export type Api = typeof api;
export type AreaName = keyof Api;
