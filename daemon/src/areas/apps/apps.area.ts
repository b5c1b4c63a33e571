import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ShareAccess } from '../../../../shared/src/api/shares/shares.ts';
import type { Sequelize } from 'sequelize';
import type { Clock } from '../../core/clock.ts';
import type { JobEngine } from '../../core/jobs/job-engine.ts';
import type { Logger } from '../../core/logger.ts';
import type { Principal, PrincipalResolver } from '../../core/principal.ts';
import type { Scheduler } from '../../core/scheduler.ts';
import type { TopicPublisher } from '../../core/topics/topic-provider.ts';
import { AppAccounts, appAccountName } from '../../host/app-accounts.ts';
import { backendConfinement, defaultBackendLimits, type BackendLimitValues } from '../../host/app-backends/backend-limits.ts';
import { FolderAppVolumes } from '../../host/app-volumes/folder-app-volumes.ts';
import { ZfsAppVolumes } from '../../host/app-volumes/zfs-app-volumes.ts';
import { CommandRunner } from '../../host/command-runner.ts';
import { ZfsDriver } from '../../host/zfs/zfs-driver.ts';
import type { AppVolumes } from '../../host/app-volumes/app-volumes.ts';
import { defineArea } from '../area.ts';
import type { AppGrantsStore } from '../identity/permissions/app-grants.ts';
import { daemonFs } from '../../host/share-fs/daemon-fs.ts';
import type { ShareFs } from '../../host/share-fs/share-fs.ts';
import { UserFsPool } from '../../host/share-fs/user-fs-pool.ts';
import type { ListingCache } from '../files/listing-cache.ts';
import type { FolderSnapshot } from '../files/listing.ts';
import { AppFiles } from './app-files.ts';
import { AppIcons } from './app-icons.ts';
import { AppTokens } from './app-tokens.ts';
import { BackendSupervisor } from './backend-supervisor.ts';
import { installJob, rollbackJob, runInstall, runRollback, runUninstall, uninstallJob, type AppJobsDeps } from './apps.jobs.ts';
import { initAppModels } from './app.model.ts';
import { appsRoutes, appTokenResolver, type AppsHttpDeps } from './apps-http.ts';
import { appsAdminTopic, appsTopic } from './apps.topics.ts';
import { InstalledAppsService } from './installed-apps.service.ts';
import { PackageStore } from './package-store.ts';
import { PackagesService } from './packages.service.ts';
import { StorageMappings } from './storage-mappings.ts';
import { appsBackupPart } from './apps.backup.ts';

export interface AppsAreaDeps {
  db: Sequelize;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  scheduler: Pick<Scheduler, 'every'>;
  jobs: Pick<JobEngine, 'enqueue' | 'get' | 'register'>;
  topics: TopicPublisher;
  /**
   * zfs: each app's files and data on the app pool as a dataset (where storage applies), else in
   * folders below the data directory; accounts: apps' system accounts are made for real.
   */
  host: { zfs: boolean; accounts: boolean };
  /** The limits of every backend; the house's (backend-limits.ts) unless a test sets its own. */
  backendLimits?: BackendLimitValues;
  grants: AppGrantsStore;
  boxVersion: string;
  /** A line a backend wrote, for the log store as `app/<id>`. */
  backendOutput(appId: string, level: 'info' | 'warn', line: string): void;
  /** Any share by id with its host folder, for storage mappings. */
  share(shareId: number): Promise<{ name: string; hostPath: string } | null>;
  /** A user's own access to a share, as the file API checks it; the API for apps holds mapped storage to it. */
  shareAccess(principal: Principal, shareId: number): Promise<ShareAccess>;
  /** The file API's listing cache, shared with the apps' file calls. */
  listings: ListingCache<FolderSnapshot>;
  /** The file services apply the shares' ACLs again (mappings in force changed). */
  aclsChanged(): void;
  /** What the API for apps reaches besides the apps: notifications and the log store. */
  notifications: AppsHttpDeps['notifications'];
  logs: AppsHttpDeps['logs'];
  /** An app token counts only while its session lives and its user may still use the app. */
  sessionAlive(sessionId: string): Promise<boolean>;
  principals: PrincipalResolver;
}

const packageSweepMs = 60_000;

export type AppsArea = ReturnType<typeof createAppsArea>;

/** Builds the apps area: uploaded packages, installed apps, their jobs and topics. */
export function createAppsArea(deps: AppsAreaDeps) {
  const models = initAppModels(deps.db);
  const volumes: AppVolumes = deps.host.zfs
    ? new ZfsAppVolumes(new ZfsDriver(new CommandRunner(deps.logger, true)))
    : new FolderAppVolumes(path.join(deps.dataDir, 'apps', 'volumes'));
  const accounts = new AppAccounts(new CommandRunner(deps.logger, deps.host.accounts));
  const store = new PackageStore({ root: path.join(deps.dataDir, 'apps', 'packages'), clock: deps.clock });
  const packages = new PackagesService({
    store,
    installed: async (appId) => {
      const row = await models.apps.findByPk(appId);
      return row ? { manifest: row.parsedManifest, source: row.sourceCatalog ?? null } : null;
    },
    boxVersion: deps.boxVersion,
    logger: deps.logger,
  });
  const tokens = new AppTokens(deps.clock);
  // Bound below: a mapping's change publishes the list and restarts the backend, which the service does.
  let afterMapping: (appId: string) => Promise<void> = async () => undefined;
  const mappings = new StorageMappings({ models, share: deps.share, logger: deps.logger, changed: (appId) => afterMapping(appId) });
  const confinement = backendConfinement({
    limits: deps.backendLimits ?? defaultBackendLimits,
    root: process.getuid?.() === 0,
    // One group per data directory: daemons side by side (tests) never end each other's backends.
    group: `cellar-apps-${createHash('sha256').update(deps.dataDir).digest('hex').slice(0, 8)}`,
    runner: new CommandRunner(deps.logger, true),
    logger: deps.logger,
  });
  // Under the app's own account where accounts are real (a box, or tests that ask for them); a development daemon runs them as itself.
  const backends = new BackendSupervisor({
    logger: deps.logger,
    output: deps.backendOutput,
    asRoot: accounts.real && process.getuid?.() === 0,
    socketFolder: path.join(deps.dataDir, 'apps', 'sockets'),
    confinement,
  });
  const apps = new InstalledAppsService({
    models,
    tokens,
    backends,
    backendLimits: confinement.state,
    volumes: volumes,
    store,
    packages,
    grants: deps.grants,
    jobs: deps.jobs,
    publisher: deps.topics,
    clock: deps.clock,
    logger: deps.logger,
    backendFolders: (appId) => mappings.backendFolders(appId),
    aclsChanged: deps.aclsChanged,
  });
  afterMapping = async (appId) => {
    apps.changed();
    await apps.syncBackend(appId);
  };
  // Where accounts are real, an app's file calls run as its own account: the disk's ACLs decide too.
  const appFs =
    accounts.real && process.getuid?.() === 0
      ? new UserFsPool({ account: async (uid) => ({ username: appAccountName(uid), uid }), runner: new CommandRunner(deps.logger, true), logger: deps.logger })
      : null;
  const files = new AppFiles({
    mappings,
    listings: deps.listings,
    logger: deps.logger,
    shareAccess: deps.shareAccess,
    fsForApp: async (uid): Promise<ShareFs> => (appFs ? appFs.forUser(uid) : daemonFs),
  });
  const jobDeps: AppJobsDeps = {
    db: deps.db,
    models,
    volumes: volumes,
    accounts: accounts,
    store,
    grants: deps.grants,
    clock: deps.clock,
    logger: deps.logger,
    chownable: process.getuid?.() === 0,
    endTokens: (appId) => tokens.endApp(appId),
    syncBackend: (appId) => apps.syncBackend(appId),
    stopBackend: (appId) => backends.stop(appId),
    changed: () => apps.changed(),
  };
  deps.jobs.register(installJob, { run: (ctx: Parameters<typeof runInstall>[1]) => runInstall(jobDeps, ctx) });
  deps.jobs.register(rollbackJob, { run: (ctx: Parameters<typeof runRollback>[1]) => runRollback(jobDeps, ctx) });
  deps.jobs.register(uninstallJob, { run: (ctx: Parameters<typeof runUninstall>[1]) => runUninstall(jobDeps, ctx) });
  const icons = new AppIcons({ models, volumes: volumes, mayUse: (principal, appId) => apps.mayUse(principal, appId) });
  // Also at start: packages kept before a restart are forgotten, so their folders go.
  deps.scheduler.every('apps.packages.sweep', packageSweepMs, () => store.sweep());
  apps.changed();
  // The apps part of a backup: each installed app's settings and storage mappings.
  const backupPart = appsBackupPart({ db: deps.db });
  const parts = { packages, apps, icons, models, tokens, backends, volumes, mappings, files };
  const resolveToken = appTokenResolver(parts, deps.sessionAlive, deps.principals);
  return defineArea({
    name: 'apps',
    topics: [appsAdminTopic(apps), appsTopic(apps)],
    routes: appsRoutes(parts, { resolveToken, notifications: deps.notifications, logs: deps.logs }),
    backupPart,
    ...parts,
    /** An app token as it is now (apps-http.ts), for the API for apps and the way to backends. */
    resolveToken,
    start: () => apps.startBackends(),
    async close(): Promise<void> {
      await backends.stopAll();
      appFs?.close();
    },
  });
}
