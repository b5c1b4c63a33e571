import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Server as HttpsServer } from 'node:https';
import path from 'node:path';
import { topicName } from '../../shared/src/topics.ts';
import type { Area } from './areas/area.ts';
import { createAppsArea, type AppsArea } from './areas/apps/apps.area.ts';
import { hostTokenResolver } from './areas/apps/apps-http.ts';
import { createBackupArea } from './areas/backup/backup.area.ts';
import { backupHostOptions } from './areas/backup-part.ts';
import { initSessionModel } from './areas/identity/auth/session.model.ts';
import { SqliteSessionStore } from './areas/identity/auth/session-store.ts';
import { createDesktopArea } from './areas/desktop/desktop.area.ts';
import { createNotificationsArea } from './areas/notifications/notifications.area.ts';
import { notifyJobFailed } from './areas/notifications/job-failed.ts';
import { createSharesArea } from './areas/shares/shares.area.ts';
import { createFilesArea } from './areas/files/files.area.ts';
import { createStorageArea, defaultStorageOptions } from './areas/storage/storage.area.ts';
import { storageShareLinks } from './areas/storage/share-links.ts';
import { createThumbnailsArea } from './areas/files/thumbnails/thumbnails.area.ts';
import { createFileOperationsArea } from './areas/files/operations/operations.area.ts';
import { SystemService } from './areas/system/system.service.ts';
import { dropStaleSetupCode, FirstRunSetup } from './areas/system/first-run.ts';
import { initSystemSettingModel } from './areas/system/system-settings.model.ts';
import { createSystemArea } from './areas/system/system.area.ts';
import { createNetworkArea } from './areas/network/network.area.ts';
import { coreCatalogApps, createIdentityArea } from './areas/identity/identity.area.ts';
import { initialAdminFile } from './areas/identity/users/initial-admin.ts';
import { initUserModel } from './areas/identity/users/user.model.ts';
import { loadConfig } from './config/config.ts';
import { PrincipalCache } from './core/principal-cache.ts';
import { createLogger } from './core/logger.ts';
import { LogStore } from './areas/logs/log-store.ts';
import { createLogsArea } from './areas/logs/logs.area.ts';
import { poolArchive } from './areas/logs/pool-archive.ts';
import { CommandRunner } from './host/command-runner.ts';
import { userFsFor } from './host/share-fs/user-fs-pool.ts';
import { boxDeployment } from './host/file-services/box-deployment.ts';
import { FileServices } from './host/file-services/file-services.ts';
import { fileServicesState } from './host/file-services/state-source.ts';
import { uploadTempPrefix } from './areas/files/safe-path.ts';
import { trashFolderName } from './areas/shares/share-layout.ts';
import { specialRights } from '../../shared/src/api/identity/permissions.ts';
import { systemClock } from './core/clock.ts';
import { JobEngine } from './core/jobs/job-engine.ts';
import { Scheduler } from './core/scheduler.ts';
import { createJobsArea } from './areas/jobs/jobs.area.ts';
import { TopicsHub } from './core/topics/topics-hub.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createHttpArea } from './http/http-area.ts';
import { product } from './core/product.ts';
import { createTlsArea, type TlsArea } from './areas/tls/tls.area.ts';
import { createProxyArea } from './areas/proxy/proxy.area.ts';
import { createReplicationArea } from './areas/replication/replication.area.ts';
import { ReplicationTasksStep } from './replication-tasks-step.ts';
import { createStoreArea } from './areas/store/store.area.ts';
import { createUpdatesArea } from './areas/updates/updates.area.ts';

import { createInstallerArea } from './areas/installer/installer.area.ts';
import { boxScreen } from './areas/tls/root-announcement.ts';
import type { Daemon, DaemonOptions } from './daemon-types.ts';
export type { Daemon, DaemonOptions } from './daemon-types.ts';

const sessionIdleMs = 2 * 60 * 60 * 1000;
const jobPruneIntervalMs = 60 * 60 * 1000;

/**
 * The composition root: builds everything in order and hands each service the narrow
 * dependencies it needs. Nothing listens until start().
 */
export async function createDaemon(options: DaemonOptions = {}): Promise<Daemon> {
  const config = loadConfig(options.config, options.env);
  const startedAt = Date.now();
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  dropStaleSetupCode(config.dataDir);
  // The log store is the logger's sink from the first entry on: entries wait in its buffer until the file is open.
  const logStore = new LogStore({ onError: (err) => process.stderr.write(`log store: ${err instanceof Error ? err.message : String(err)}\n`) });
  const logger = createLogger({ level: config.logLevel, console: config.logToConsole, sinks: [logStore] });
  await logStore.open(path.join(config.dataDir, 'logs.sqlite'));

  const db = await openDatabase(path.join(config.dataDir, 'cellar.sqlite'), logger);
  await migrate(db, logger);
  const userRows = initUserModel(db);
  const sessionRows = initSessionModel(db);

  const sessionStore = new SqliteSessionStore(sessionRows, sessionIdleMs);
  const topics = new TopicsHub({ logger, sessionAlive: async (sid) => (await sessionStore.isAlive(sid)) !== null });
  // Sign-out, deactivation and ended sessions close their sockets at once.
  sessionStore.ended.on('ended', (sid) => topics.closeSession(sid));
  // Built once the areas it reads exist; their change hooks reach it through this binding.
  let fileServices: FileServices | null = null;
  // Built after identity and the system host: users' homes, the zone hook and the pool list reach it through this binding.
  let storageArea: ReturnType<typeof createStorageArea> | null = null;
  // Installed apps join the permission catalog, which identity (built first) reads through this binding.
  let appsArea: AppsArea | null = null;
  // Needs the users service, built after the system service that reports it.
  let firstRun: FirstRunSetup | null = null;
  // The sign-in page's root fingerprint comes from the TLS area, built with the scheduler further down.
  let tlsArea: TlsArea | null = null;
  const replicationTasks = new ReplicationTasksStep(options.replicationTasks);
  const clock = options.clock ?? systemClock;
  // How the areas' backup parts reach the host (accounts, Samba, SSH host keys, zfs) when restored.
  const backupHost = backupHostOptions(config.mode, options.backup);
  const scheduler = new Scheduler({ clock, logger });
  const notificationsArea = createNotificationsArea({ db, clock, logger, topics, scheduler });
  const { notifications } = notificationsArea;
  const desktopArea = await createDesktopArea({
    db,
    dataDir: config.dataDir,
    clock,
    logger,
    topics,
    installedApps: async (caller) => (await appsArea?.apps.desktopApps(caller)) ?? [],
  });
  const systemSettings = initSystemSettingModel(db);
  const system = new SystemService({
    mode: config.mode,
    startedAt,
    firstRun: async () => (await userRows.count()) === 0 || existsSync(path.join(config.dataDir, initialAdminFile)),
    setupCode: () => firstRun?.waiting() ?? false,
    settings: systemSettings,
    logger,
    rootCaFingerprint: async () => tlsArea?.service.rootFingerprint() ?? null,
    timeZone: () => systemArea.time.zone(),
  });
  const identity = await createIdentityArea({
    db,
    clock,
    defaultLanguage: async () => (await system.region()).language,
    logger,
    userRows,
    sessionStore,
    topics,
    dataDir: config.dataDir,
    userDeleted: (userId) => desktopArea.wallpaper.userDeleted(userId),
    applyAccounts: config.mode === 'box',
    apps: () => [...coreCatalogApps(), ...(appsArea?.apps.catalog() ?? [])],
    initialAdmin: config.mode === 'development' && !options.firstRunSetup ? { password: config.adminPassword } : null,
    accountsChanged: () => fileServices?.changed(),
    homes: () => storageArea?.homes ?? null,
    backupHost,
  });
  const { users } = identity;
  // The time area is built further down: the zone reaches it through this closure, called only on a request.
  const setTimeZone = async (timeZone: string) => void (await systemArea.time.set({ timeZone, servers: (await systemArea.time.get()).servers }));
  const time = { set: setTimeZone, zones: () => systemArea.time.zones() };
  const setup = (firstRun = new FirstRunSetup({ dataDir: config.dataDir, clock, logger, system, users, time, announce: options.announceSetupCode }));
  const jobs = new JobEngine({
    db,
    logger,
    publisher: topics,
    clock,
    userJobChanged: (userId, type, job) => topics.publishToUser(userId, topicName.jobsList, type, job),
    jobFailed: (job) => void notifyJobFailed(notifications, job, logger),
  });
  const jobsArea = createJobsArea(jobs);
  scheduler.every('jobs.prune', jobPruneIntervalMs, () => jobs.prune());
  const tls = (tlsArea = createTlsArea({
    dataDir: config.dataDir,
    clock,
    logger,
    scheduler,
    https: config.https,
    host: options.tls?.host,
    // The box and the medium show the root's fingerprint on their screen; a development daemon only logs it.
    screen: options.tls?.screen !== undefined ? options.tls.screen : config.mode === 'development' ? null : boxScreen,
    notifyAdministrators: async (notification) => {
      for (const admin of await userRows.findAll({ where: { admin: true, active: true } })) await notifications.notify(admin.id, notification);
    },
  }));
  const installer = await createInstallerArea({ config, logger, clock, createDaemon, options: options.installer });
  // The archive lives on a pool, and pools come with the storage area built further down.
  const logsArea = await createLogsArea({ mode: config.mode, store: logStore, clock, logger, scheduler, topics, options: options.logs });
  const { logs } = logsArea;
  // The second wall behind the share checks: a user's file I/O in the user's own identity (host/share-fs).
  const userFs = userFsFor(options.files?.userIdentity ?? config.mode === 'box', {
    account: async (id) => {
      const row = await userRows.findByPk(id);
      return row ? { username: row.username, uid: row.uid } : null;
    },
    runner: new CommandRunner(logger, true),
    logger,
  });
  const { fsFor } = userFs;
  const sharesArea = createSharesArea({
    db,
    mode: config.mode,
    dataDir: config.dataDir,
    logger,
    topics,
    listUsers: async () =>
      (await userRows.findAll({ order: [['username', 'ASC']] })).map((u) => ({ id: u.id, username: u.username, admin: u.admin, active: u.active })),
    hostChanged: () => fileServices?.changed(),
    backupHost,
  });
  const filesArea = createFilesArea({
    shares: sharesArea.shares,
    logger,
    topics,
    fsFor,
    // The hub does not count a topic's sockets yet: until it does, folder watches stay until close (bounded in number).
    listenerCount: (topic) => (topics as Partial<{ listenerCount(t: string): number }>).listenerCount?.(topic) ?? 1,
  });
  // Samba, SFTP and ACLs on a box; in development mode what they would be goes to the log.
  fileServices = new FileServices({
    runner: new CommandRunner(logger, config.mode === 'box' || options.fileServices !== undefined),
    logger,
    deployment: options.fileServices?.deployment ?? boxDeployment,
    reserved: { trashFolder: trashFolderName, uploadTempPrefix },
    state: fileServicesState({
      shares: () => sharesArea.shares.details(),
      effectiveAccess: async (shareId) => (await sharesArea.shares.grants(shareId)).effective,
      rightHolders: (right) => identity.rightHolders(specialRights[right]),
      folderHolders: async (shareId) => (await appsArea?.mappings.holders(shareId)) ?? [],
    }),
  });
  const thumbnailsArea = createThumbnailsArea({ db, dataDir: config.dataDir, logger, topics, scheduler, shares: sharesArea.shares });
  const fileOperations = createFileOperationsArea({
    fsFor,
    db,
    clock,
    logger,
    jobs,
    scheduler,
    shares: sharesArea.shares,
    forgetThumbnails: (shareId, rel) => thumbnailsArea.thumbnails.forget(shareId, rel),
    folderChanged: (folder) => filesArea.listings.invalidate(folder),
    entriesArrived: (shareId, paths) => void fileServices?.entriesArrived(shareId, paths),
  });
  const systemArea = await createSystemArea({
    mode: config.mode,
    db,
    system,
    setup,
    // A development daemon made its administrator above; a box from the package waits for its owner.
    prepareSetup: config.mode === 'box' || options.firstRunSetup === true,
    dataDir: config.dataDir,
    startedAt,
    settings: systemSettings,
    clock,
    logger,
    topics,
    options: options.system,
    unfinishedJobs: () => jobs.unfinished(),
    zoneChanged: async (from, to) => storageArea?.schedules.zoneChanged(from, to),
    pools: () => storageArea?.pools.lastRead() ?? null,
    sessions: {
      signedIn: () => sessionStore.signedIn(),
      users: async (ids) => (await userRows.findAll({ where: { id: ids } })).map((u) => ({ id: u.id, username: u.username, displayName: u.displayName })),
      smb: () => fileServices?.smbSessions() ?? Promise.resolve({ state: 'failed' }),
    },
    backupHost,
  });
  const network = await createNetworkArea({ mode: config.mode, dataDir: config.dataDir, clock, logger, topics, options: options.system?.network });
  const storageOptions = { ...defaultStorageOptions(config.mode === 'box'), ...options.storage };
  const storage = createStorageArea({
    db,
    logger,
    clock,
    jobs,
    scheduler,
    topics,
    options: storageOptions,
    ...storageShareLinks(sharesArea.shares, (shareId, paths) => void fileServices?.entriesArrived(shareId, paths)),
    dataDir: config.dataDir,
    zone: () => systemArea.time.zone(),
    snapshotsTaken: replicationTasks.snapshotsTaken,
  });
  storageArea = storage;
  // On a box (or with real storage) the archive goes to a pool; a development daemon writes none on the host's pools.
  if (storageOptions.apply) logsArea.archiveOn(poolArchive(() => storage.pools.lastRead()));

  // The caller of a request, read again only when the users' rows changed.
  const principals = new PrincipalCache((id) => users.principal(id)).watch(db);
  appsArea = createAppsArea({
    db,
    dataDir: config.dataDir,
    clock,
    logger,
    scheduler,
    jobs,
    topics,
    host: { zfs: storageOptions.apply, accounts: options.apps?.accounts ?? config.mode === 'box' },
    backendLimits: options.apps?.backendLimits,
    grants: identity.appGrants,
    boxVersion: product.version,
    backendOutput: (appId, level, line) => logs.appOutput(appId, level, line),
    share: async (shareId) => (await sharesArea.shares.datasets()).find((s) => s.id === shareId) ?? null,
    shareAccess: (principal, shareId) => sharesArea.shares.accessOf(principal, shareId),
    listings: filesArea.listings,
    aclsChanged: () => fileServices?.changed(),
    notifications,
    logs,
    sessionAlive: async (sid) => (await sessionStore.isAlive(sid)) !== null,
    principals: principals.resolve,
  });

  const apps = appsArea;
  const storeCore = { db, config, clock, logger, scheduler, jobs, topics, apps, notifications, userRows, options: options.store };
  const store = await createStoreArea(storeCore, { zone: () => systemArea.time.zone(), principal: (id) => principals.resolve(id) });
  const updates = await createUpdatesArea({ config, options, settings: systemSettings, clock, logger, topics, jobs, scheduler, time: systemArea.time });
  const proxy = createProxyArea({ db, config, clock, logger, scheduler, topics, tls, sessionStore, identity, options: options.proxy });
  // A session's end (sign-out, password reset, deactivation, expiry) ends its apps' tokens too.
  sessionStore.ended.on('ended', (sid) => apps.tokens.endSession(sid));
  const fileServicesStep: Area = { name: 'file-services', start: () => fileServices?.changed(), close: () => fileServices?.close() };
  // The server listens once every area before it started, and closes after all of them (close() below).
  const serverStep: Area = {
    name: 'server',
    async start() {
      topics.attach(server, sessions, principals.resolve);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      logger.info('listening', { component: 'daemon', url: url(), mode: config.mode });
    },
  };
  /**
   * Every area in start order; close() goes in reverse. What the order keeps: the topics hub closes
   * after every area (renders in flight and jobs publish while closing); jobs run only between the
   * jobs area's start and stop; the proxy starts once the server listens; the scheduler starts last
   * and stops first, so no periodic work runs into a closed area.
   */
  const built: Area[] = [
    { name: 'topics', close: () => topics.close() },
    installer,
    jobsArea,
    identity,
    systemArea,
    tls,
    network,
    sharesArea,
    filesArea,
    fileServicesStep,
    { name: 'user-fs', close: () => userFs.close() },
    storage,
    thumbnailsArea,
    fileOperations,
    logsArea,
    notificationsArea,
    desktopArea,
    updates,
    apps,
    store,
    createReplicationArea({ db, config, clock, logger, topics, tls, pools: storage.pools, shares: sharesArea.shares, options: options.replication }),
    replicationTasks.area({ db, clock, logger, jobs, scheduler, topics, storage, apps, shares: sharesArea.shares, zone: () => systemArea.time.zone() }),
    serverStep,
    proxy,
    { name: 'scheduler', start: () => scheduler.start(), close: () => scheduler.stop() },
  ];
  // The backup collects the parts the areas carry.
  const areas: Area[] = [...built, createBackupArea({ db, clock, logger, sessionStore, restart: options.restart, areas: built })];
  for (const area of areas) for (const provider of area.topics ?? []) topics.register(provider);
  const { app, sessions } = createHttpArea({
    config,
    logger,
    sessionStore,
    resolvePrincipal: principals.resolve,
    resolveAppToken: hostTokenResolver(apps.resolveToken),
    routes: areas.flatMap((area) => area.routes ?? []),
  });
  // The installation medium serves HTTPS with its own key; every other daemon with the TLS area's.
  const server = installer.attach(installer.createServer(app) ?? (await tls.createServer(app)));

  const url = (): string => {
    const address = server.address() as AddressInfo | null;
    if (!address) throw new Error('the daemon is not listening');
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `${server instanceof HttpsServer ? 'https' : 'http'}://${host}:${address.port}`;
  };

  return {
    config,
    app,
    server,
    logger,
    db,
    topics,
    sessionStore,
    jobs,
    scheduler,
    url,
    async start() {
      for (const area of areas) await area.start?.({ url });
    },
    async close() {
      for (const area of [...areas].reverse()) await area.close?.();
      // After the topics hub closed the sockets, which would otherwise hold the server open.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
      // Last, so the entries of the shutdown are kept too.
      await logStore.close();
    },
  };
}
