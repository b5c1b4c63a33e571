import type { JobTitle } from '../../../../shared/src/api/jobs/jobs.ts';
import type { Sequelize } from 'sequelize';
import type { StorageDisk } from '../../../../shared/src/api/storage/storage.ts';
import type { Clock } from '../../core/clock.ts';
import type { JobEngine } from '../../core/jobs/job-engine.ts';
import type { Logger } from '../../core/logger.ts';
import type { Scheduler } from '../../core/scheduler.ts';
import type { TopicPublisher } from '../../core/topics/topic-provider.ts';
import { CommandRunner } from '../../host/command-runner.ts';
import { DiskProbe } from '../../host/disks/disk-probe.ts';
import { ZfsDriver } from '../../host/zfs/zfs-driver.ts';
import path from 'node:path';
import { copyTree } from '../../host/copy-tree.ts';
import { SnapshotReader } from '../../host/zfs/snapshot-reader.ts';
import { api } from '../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea } from '../area.ts';
import { AlertsService } from './alerts.service.ts';
import { runVersionRestore, type VersionRestoreParams } from './file-versions.jobs.ts';
import { fileVersionsHandlers } from './file-versions.routes.ts';
import { FileVersionsService, versionRestoreJob, type FileVersionsDeps, type VersionShare } from './file-versions.service.ts';
import { runHomeMove, runHomeRelease } from './homes.jobs.ts';
import { initHomeModels } from './homes.model.ts';
import { homesHandlers } from './homes.routes.ts';
import type { HomeShares } from './homes-deps.ts';
import { homeMoveJob, homeReleaseJob, HomesService } from './homes.service.ts';
import { RestorePoints } from './restore-points.ts';
import { DiskGuard } from './disk-guard.ts';
import { PlanStore } from './plan-store.ts';
import { planJobKind, PlansService, type DatasetShares, type PlanJobParams } from './plans.service.ts';
import { PoolsService } from './pools.service.ts';
import { SchedulesService } from './schedules.service.ts';
import { SnapshotSchedules } from './snapshot-schedules.ts';
import { SnapshotsService } from './snapshots.service.ts';
import { initStorageModels } from './storage.model.ts';
import { storageAlertsTopic, storagePoolsTopic } from './storage.topics.ts';
import { storageBackupPart } from './storage.backup.ts';
import { storageHandlers } from './storage.routes.ts';

/**
 * How storage touches the machine. `apply` runs ZFS changes for real: on a box always; in
 * development mode only when asked (storage system tests), since development mode otherwise
 * only logs host effects. The rest are seams for tests on loop devices.
 */
export interface StorageOptions {
  apply: boolean;
  includeLoopDevices: boolean;
  minDiskBytes: number;
  /** Where new pools mount (`<mountRoot>/<pool>`). */
  mountRoot: string;
  /** Folders the import scan reads device labels from. */
  importDirs: string[];
  scrubPollMs: number;
}

export const defaultStorageOptions = (box: boolean): StorageOptions => ({
  apply: box,
  includeLoopDevices: false,
  minDiskBytes: 1024 ** 3,
  mountRoot: '/mnt',
  importDirs: ['/dev/disk/by-id'],
  scrubPollMs: 2000,
});

export interface StorageAreaDeps {
  db: Sequelize;
  logger: Logger;
  clock: Clock;
  jobs: JobEngine;
  scheduler: Scheduler;
  topics: TopicPublisher;
  shares: DatasetShares;
  /** Homes are shares too: registered, granted to their user, renamed and moved through this. */
  homeShares: HomeShares;
  /** Shares for file versions: with the caller's access checked, or by id for jobs checked at request time. */
  versionShares: { share: FileVersionsDeps['share']; shareById(shareId: number): Promise<VersionShare | null> };
  /** Every dataset share and whether its daily restore points are on. */
  restorePointShares(): Promise<{ dataset: string | null; restorePoints: boolean }[]>;
  /** Private folders (snapshot clones' mount points) live below it. */
  dataDir: string;
  options: StorageOptions;
  /** The box's time zone (System, Time): daily times of schedules and snapshots follow it. */
  zone?: () => string;
  /** Told after a pass of the snapshot schedules with the datasets that got a new snapshot (replication tasks). */
  snapshotsTaken?: (datasets: string[]) => void;
}

const periodicMs = 60_000;

export type StorageArea = ReturnType<typeof createStorageArea>;

/** Builds the storage area: host driver with its own runner, services, the plan job kind, topics and periodic work. */
export function createStorageArea(deps: StorageAreaDeps) {
  const { logger, clock, options } = deps;
  const runner = new CommandRunner(logger, options.apply);
  const zfs = new ZfsDriver(runner);
  const probe = new DiskProbe(runner, { includeLoopDevices: options.includeLoopDevices });
  const guard = new DiskGuard({ probe, zfs, minDiskBytes: options.minDiskBytes });
  const models = initStorageModels(deps.db);
  const pools = new PoolsService({ zfs, clock, publisher: deps.topics, importDirs: options.importDirs, scrubPollMs: options.scrubPollMs });
  const snapshots = new SnapshotsService({ zfs, clock });
  const snapshotSchedules = new SnapshotSchedules({ models, snapshots, zfs, clock, logger, zone: deps.zone, snapshotsTaken: deps.snapshotsTaken });
  const alerts = new AlertsService({ models, clock, publish: (t, type, data) => deps.topics.publish(t, type, data) });
  const candidatePaths = async () => (await guard.facts()).map((f) => f.device.path);
  const refresh = async () => {
    const list = await pools.refresh();
    await alerts.update(list, await Promise.all((await candidatePaths()).map((p) => probe.smart(p))));
  };
  const plans = new PlansService({
    zfs,
    guard,
    store: new PlanStore(clock),
    snapshots,
    shares: deps.shares,
    enqueue: (params, userId) => deps.jobs.enqueue(planJobKind, params, userId),
    mountRoot: options.mountRoot,
    applies: options.apply,
    importDirs: options.importDirs,
    changed: () => void refresh().catch((err: unknown) => logger.warn('storage refresh failed', { component: 'storage', error: String(err) })),
  });
  const schedules = new SchedulesService({
    models,
    clock,
    zone: deps.zone,
    logger,
    poolNames: async () => (await zfs.listPools()).map((p) => p.name),
    scrub: (pool) => pools.startScrub(pool),
    // Short self-tests; disks without SMART answer an error that is only logged.
    smartSelfTests: async () => {
      for (const path of await candidatePaths()) await runner.run(['smartctl', '-t', 'short', path], { allowFailure: true });
    },
  });
  deps.jobs.register<PlanJobParams, { commands: number }>(planJobKind, {
    run: (ctx) => plans.execute(ctx),
    // "Creating the share Family": the plan's kind, with the share's name where the plan makes one.
    title: (p): JobTitle => ({ code: `storage.${p.kind}`, params: p.after?.kind === 'share.register' ? { name: p.after.name } : {} }),
  });
  const homeModels = initHomeModels(deps.db);
  const enqueue = (kind: string, params: object, userId: number) => deps.jobs.enqueue(kind, params, userId);
  const copy = (from: string, to: string, signal?: AbortSignal) => copyTree({ runner, logger }, from, to, signal);
  const homes = new HomesService({ models: homeModels, zfs, shares: deps.homeShares, logger, enqueue, copy });
  const homeJobs = { homes, models: homeModels, shares: deps.homeShares, copy };
  deps.jobs.register<{ shareId: number; targetShareId: number }, { folder: string }>(homeReleaseJob, { run: (ctx) => runHomeRelease(homeJobs, ctx) });
  deps.jobs.register(homeMoveJob, { run: (ctx: Parameters<typeof runHomeMove>[1]) => runHomeMove(homeJobs, ctx) });
  const reader = new SnapshotReader(zfs, path.join(deps.dataDir, 'snapshot-clones'));
  const versions = new FileVersionsService({ zfs, reader, share: deps.versionShares.share, enqueue });
  deps.jobs.register<VersionRestoreParams, { path: string }>(versionRestoreJob, {
    run: (ctx) => runVersionRestore({ versions, reader, shareById: deps.versionShares.shareById }, ctx),
  });
  const restorePoints = new RestorePoints({ zfs, snapshots, clock, logger, zone: deps.zone, shares: deps.restorePointShares });
  // Background storage work (polling pools, scrubs, snapshots) only where storage is the daemon's
  // to manage: on a box, or when real storage is switched on. A development daemon answers the
  // storage API when asked but never probes or changes the host's ZFS on its own.
  if (options.apply) {
    deps.scheduler.every('storage.restorePoints', periodicMs, (signal) => restorePoints.runDue(signal));
    deps.scheduler.every('storage.schedules', periodicMs, () => schedules.runDue());
    deps.scheduler.every('storage.snapshots', periodicMs, (signal) => snapshotSchedules.runDue(signal));
    deps.scheduler.every('storage.health', periodicMs, () => refresh());
  }

  const parts = {
    /** Whether ZFS changes run for real (see StorageOptions.apply). */
    applies: options.apply,
    zfs,
    pools,
    plans,
    snapshots,
    snapshotSchedules,
    schedules,
    alerts,
    homes,
    versions,
    restorePoints,
    refresh,
    disks: async (): Promise<{ disks: StorageDisk[] }> => ({ disks: await guard.list((p) => probe.smart(p)) }),
  };
  return defineArea({
    name: 'storage',
    topics: [storagePoolsTopic(pools), storageAlertsTopic(alerts)],
    routes: [
      tableRoutes(api.storage, storageHandlers(parts)),
      tableRoutes(api.homes, homesHandlers(homes)),
      tableRoutes(api.fileVersions, fileVersionsHandlers(versions)),
    ],
    /** Schedules and home settings (the storage part of a backup). */
    backupPart: storageBackupPart({ db: deps.db }),
    ...parts,
    close: () => pools.close(),
  });
}
