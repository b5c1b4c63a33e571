import Joi from 'joi';
import { jobSchema } from './jobs.ts';
import { defineRoute } from './route.ts';
import { importScan, poolList, storageDiskList } from './storage-schemas.ts';
import { sharePlanRequest, storagePlanPreview, storagePlanRequest } from './storage-plan-schemas.ts';
import {
  datasetQuery,
  snapshot,
  snapshotCreateRequest,
  snapshotList,
  snapshotRequest,
  snapshotScheduleList,
  storageHealth,
  storageScheduleList,
  storageScheduleUpdate,
} from './storage-snapshot-schemas.ts';

export * from './storage-schemas.ts';
export * from './storage-plan-schemas.ts';
export * from './storage-snapshot-schemas.ts';

const poolParams = Joi.object<{ pool: string }, true>({ pool: Joi.string().pattern(/^[A-Za-z][A-Za-z0-9_.:-]{0,62}$/).required() });
const planParams = Joi.object<{ planId: string }, true>({ planId: Joi.string().uuid().required() });
const alertParams = Joi.object<{ key: string }, true>({ key: Joi.string().min(1).max(300).required() });
const zfs = ['storage.zfs.unavailable'] as const;

export const storageRoutes = {
  alerts: defineRoute({ id: 'storage.alerts', method: 'GET', path: '/api/storage/alerts', access: 'admin', summary: "Alerts with the caller's mute flags and SMART state per disk; topic storage/alerts", status: 200, response: storageHealth, errors: [...zfs] }),
  muteAlert: defineRoute({ id: 'storage.muteAlert', method: 'POST', path: '/api/storage/alerts/{key}/mute', access: 'admin', summary: 'Hides an alert for the caller until it goes away or becomes more severe', params: alertParams, status: 200, response: storageHealth, errors: ['storage.alert.not_found', ...zfs] }),
  unmuteAlert: defineRoute({ id: 'storage.unmuteAlert', method: 'DELETE', path: '/api/storage/alerts/{key}/mute', access: 'admin', summary: 'Shows an alert again', params: alertParams, status: 200, response: storageHealth, errors: ['storage.alert.not_found', ...zfs] }),
  disks: defineRoute({ id: 'storage.disks', method: 'GET', path: '/api/storage/disks', access: 'admin', summary: 'Disks with the disk guard verdict and every reason against', status: 200, response: storageDiskList, errors: [...zfs] }),
  importScan: defineRoute({ id: 'storage.importScan', method: 'POST', path: '/api/storage/import/scan', access: 'admin', summary: 'Finds importable pools with layout and verdict; imports nothing (reads every disk label, may wake sleeping disks)', status: 200, response: importScan, errors: [...zfs] }),
  createPlan: defineRoute({
    id: 'storage.createPlan',
    method: 'POST',
    path: '/api/storage/plans',
    access: 'admin',
    summary: 'Probes disks, asks the disk guard and answers the exact commands with a plan id; runs nothing',
    body: storagePlanRequest,
    status: 200,
    response: storagePlanPreview,
    errors: ['storage.disk.not_found', 'storage.disk.refused', 'storage.layout.invalid', 'storage.pool.exists', 'storage.pool.not_found', 'storage.pool.not_importable', 'storage.capability.unsupported', ...zfs],
  }),
  runPlan: defineRoute({
    id: 'storage.runPlan',
    method: 'POST',
    path: '/api/storage/plans/{planId}/run',
    access: 'admin',
    summary: 'Runs a plan exactly as shown, once, within 10 minutes; the disk guard rechecks every disk before each command',
    params: planParams,
    status: 202,
    response: jobSchema,
    errors: ['storage.plan.not_found', 'storage.plan.expired', 'storage.plan.already_run'],
  }),
  pools: defineRoute({ id: 'storage.pools', method: 'GET', path: '/api/storage/pools', access: 'admin', summary: 'Pools with vdevs and datasets as last read; topic storage/pools', status: 200, response: poolList, errors: [...zfs] }),
  startScrub: defineRoute({ id: 'storage.startScrub', method: 'POST', path: '/api/storage/pools/{pool}/scrub', access: 'admin', summary: 'Starts a scrub or resumes a paused one; answers at once, progress on storage/pools', params: poolParams, status: 204, errors: ['storage.pool.not_found', ...zfs] }),
  stopScrub: defineRoute({ id: 'storage.stopScrub', method: 'DELETE', path: '/api/storage/pools/{pool}/scrub', access: 'admin', summary: 'Stops the scrub; the next one starts from the beginning', params: poolParams, status: 204, errors: ['storage.pool.not_found', 'storage.scrub.not_running', ...zfs] }),
  pauseScrub: defineRoute({ id: 'storage.pauseScrub', method: 'POST', path: '/api/storage/pools/{pool}/scrub/pause', access: 'admin', summary: 'Pauses the running scrub', params: poolParams, status: 204, errors: ['storage.pool.not_found', 'storage.scrub.not_running', 'storage.capability.unsupported', ...zfs] }),
  schedules: defineRoute({ id: 'storage.schedules', method: 'GET', path: '/api/storage/schedules', access: 'admin', summary: 'Scrub schedules per pool and the SMART self-test schedule with last and next runs', status: 200, response: storageScheduleList, errors: [...zfs] }),
  setSchedules: defineRoute({ id: 'storage.setSchedules', method: 'PUT', path: '/api/storage/schedules', access: 'admin', summary: 'Sets schedules to off, weekly or monthly', body: storageScheduleUpdate, status: 200, response: storageScheduleList, errors: ['storage.pool.not_found', ...zfs] }),
  snapshots: defineRoute({ id: 'storage.snapshots', method: 'GET', path: '/api/storage/snapshots', access: 'admin', summary: "A dataset's snapshots, oldest first", query: datasetQuery, status: 200, response: snapshotList, errors: ['storage.dataset.not_found', ...zfs] }),
  createSnapshot: defineRoute({ id: 'storage.createSnapshot', method: 'POST', path: '/api/storage/snapshots', access: 'admin', summary: 'Takes service-manual-<utc>, which no schedule ever prunes', body: snapshotCreateRequest, status: 201, response: snapshot, errors: ['storage.dataset.not_found', ...zfs] }),
  holdSnapshot: defineRoute({ id: 'storage.holdSnapshot', method: 'POST', path: '/api/storage/snapshots/hold', access: 'admin', summary: 'Places the hold named service; a held snapshot cannot be destroyed', body: snapshotRequest, status: 204, errors: ['storage.snapshot.not_found', 'storage.snapshot.already_held', ...zfs] }),
  releaseSnapshot: defineRoute({ id: 'storage.releaseSnapshot', method: 'POST', path: '/api/storage/snapshots/release', access: 'admin', summary: 'Releases the hold named service only; holds of other tools stay', body: snapshotRequest, status: 204, errors: ['storage.snapshot.not_found', 'storage.snapshot.not_held', ...zfs] }),
  snapshotSchedules: defineRoute({ id: 'storage.snapshotSchedules', method: 'GET', path: '/api/storage/snapshots/schedules', access: 'admin', summary: "A dataset's snapshot schedules (off with keep 24, 7, 4, 6 until saved)", query: datasetQuery, status: 200, response: snapshotScheduleList, errors: ['storage.dataset.not_found', ...zfs] }),
  setSnapshotSchedules: defineRoute({ id: 'storage.setSnapshotSchedules', method: 'PUT', path: '/api/storage/snapshots/schedules', access: 'admin', summary: 'Saves the given schedules of a dataset', body: snapshotScheduleList, status: 200, response: snapshotScheduleList, errors: ['storage.dataset.not_found', ...zfs] }),
  createSharePlan: defineRoute({
  id: 'storage.createSharePlan',
  method: 'POST',
  path: '/api/shares/plans',
  access: 'admin',
  summary: 'Exact commands for share.create or share.delete (keep data, or destroy the dataset with every snapshot listed); runs nothing',
  body: sharePlanRequest,
  status: 200,
  response: storagePlanPreview,
  errors: ['storage.apply.disabled', 'storage.pool.not_found', 'fs.share.not_found', 'fs.share.name_taken', 'fs.share.no_dataset', ...zfs],
  }),
};
