import type { storageRoutes } from '../../../../shared/src/api/storage.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { StorageArea } from './storage-area.ts';

export function storageHandlers(s: StorageArea): AreaHandlers<typeof storageRoutes> {
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
