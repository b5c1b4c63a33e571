import type { storageRoutes } from '../../../../shared/src/api/storage/storage.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { StorageDisk } from '../../../../shared/src/api/storage/storage.ts';
import type { AlertsService } from './alerts.service.ts';
import type { PlansService } from './plans.service.ts';
import type { PoolsService } from './pools.service.ts';
import type { SchedulesService } from './schedules.service.ts';
import type { SnapshotSchedules } from './snapshot-schedules.ts';
import type { SnapshotsService } from './snapshots.service.ts';

/** The storage area's services its routes call. */
export interface StorageParts {
  alerts: AlertsService;
  pools: PoolsService;
  plans: PlansService;
  schedules: SchedulesService;
  snapshotSchedules: SnapshotSchedules;
  snapshots: SnapshotsService;
  disks(): Promise<{ disks: StorageDisk[] }>;
}

export function storageHandlers(s: StorageParts): AreaHandlers<typeof storageRoutes> {
  return {
    alerts: ({ user }) => s.alerts.health(user.id),
    muteAlert: ({ user, params }) => s.alerts.mute(user.id, params.key),
    unmuteAlert: ({ user, params }) => s.alerts.unmute(user.id, params.key),
    disks: () => s.disks(),
    importScan: () => s.pools.importScan(),
    createPlan: ({ body }) => s.plans.preview(body),
    runPlan: ({ params, user }) => s.plans.run(params.planId, user.id),
    pools: () => s.pools.list(),
    startScrub: async ({ params }) => void (await s.pools.startScrub(params.pool)),
    stopScrub: async ({ params }) => void (await s.pools.stopScrub(params.pool)),
    pauseScrub: async ({ params }) => void (await s.pools.pauseScrub(params.pool)),
    schedules: () => s.schedules.list(),
    setSchedules: ({ body }) => s.schedules.update(body),
    snapshots: ({ query }) => s.snapshots.list(query.dataset),
    createSnapshot: ({ body }) => s.snapshots.createManual(body.dataset),
    holdSnapshot: async ({ body }) => void (await s.snapshots.hold(body.dataset, body.snapshot)),
    releaseSnapshot: async ({ body }) => void (await s.snapshots.release(body.dataset, body.snapshot)),
    snapshotSchedules: ({ query }) => s.snapshotSchedules.get(query.dataset),
    setSnapshotSchedules: ({ body }) => s.snapshotSchedules.save(body),
    createSharePlan: ({ body }) => s.plans.previewShare(body),
  };
}
