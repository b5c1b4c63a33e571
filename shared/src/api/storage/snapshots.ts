import Joi from 'joi';
import { isoTime } from '../common.ts';

export type SnapshotKind = 'hourly' | 'daily' | 'weekly' | 'monthly';
/** `restore`: a share's daily restore point, kept 7 days. */
export type ServiceKind = 'manual' | 'restore' | SnapshotKind;
export type Frequency = 'off' | 'weekly' | 'monthly';

export interface Snapshot {
  dataset: string;
  /** The part after `@`. */
  name: string;
  createdAt: string;
  usedBytes: number | null;
  referencedBytes: number | null;
  /** Number of holds of every tool (ZFS `userrefs`); a held snapshot cannot be destroyed. */
  holds: number;
  /** Set for the snapshots the service took. */
  serviceKind: ServiceKind | null;
}

export interface SnapshotList {
  dataset: string;
  snapshots: Snapshot[];
}

export interface SnapshotCreateRequest {
  dataset: string;
}

export interface SnapshotRequest {
  dataset: string;
  snapshot: string;
}

export interface SnapshotSchedule {
  kind: SnapshotKind;
  enabled: boolean;
  keep: number;
}

export interface SnapshotScheduleList {
  dataset: string;
  schedules: SnapshotSchedule[];
}

export interface ScheduleEntry {
  frequency: Frequency;
  lastRunAt: string | null;
  nextRunAt: string | null;
}

export interface StorageScheduleList {
  scrub: (ScheduleEntry & { pool: string })[];
  smartSelfTest: ScheduleEntry;
}

export interface StorageScheduleUpdate {
  scrub?: { pool: string; frequency: Frequency }[];
  smartSelfTest?: { frequency: Frequency };
}

export type AlertSeverity = 'warning' | 'critical';
export type AlertKind = 'pool.health' | 'pool.capacity' | 'smart' | 'scrub.errors';

export interface StorageAlert {
  key: string;
  kind: AlertKind;
  severity: AlertSeverity;
  subject: string;
  message: string;
  since: string;
  /** Muted by the caller (until it goes away or becomes more severe). */
  muted: boolean;
}

export interface StorageHealth {
  alerts: StorageAlert[];
  disks: { name: string; path: string; smart: import('./pools.ts').SmartInfo }[];
}

export const datasetName = () => Joi.string().pattern(/^[A-Za-z][A-Za-z0-9_.:/-]{0,254}$/);
export const snapshotPart = () => Joi.string().pattern(/^[A-Za-z0-9_.:-]{1,200}$/);
const frequency = () => Joi.string().valid('off', 'weekly', 'monthly');

export const snapshot = Joi.object<Snapshot, true>({
  dataset: Joi.string().required(),
  name: Joi.string().required(),
  createdAt: isoTime().required(),
  usedBytes: Joi.number().allow(null).required(),
  referencedBytes: Joi.number().allow(null).required(),
  holds: Joi.number().integer().min(0).required(),
  serviceKind: Joi.string().valid('manual', 'restore', 'hourly', 'daily', 'weekly', 'monthly').allow(null).required(),
}).id('Snapshot');

export const snapshotList = Joi.object<SnapshotList, true>({ dataset: Joi.string().required(), snapshots: Joi.array().items(snapshot).required() }).id(
  'SnapshotList',
);
export const snapshotCreateRequest = Joi.object<SnapshotCreateRequest, true>({ dataset: datasetName().required() }).id('SnapshotCreateRequest');
export const snapshotRequest = Joi.object<SnapshotRequest, true>({ dataset: datasetName().required(), snapshot: snapshotPart().required() }).id(
  'SnapshotRequest',
);
export const datasetQuery = Joi.object<{ dataset: string }, true>({ dataset: datasetName().required() });

const snapshotSchedule = Joi.object<SnapshotSchedule, true>({
  kind: Joi.string().valid('hourly', 'daily', 'weekly', 'monthly').required(),
  enabled: Joi.boolean().required(),
  keep: Joi.number().integer().min(1).max(10_000).required(),
}).id('SnapshotSchedule');

export const snapshotScheduleList = Joi.object<SnapshotScheduleList, true>({
  dataset: datasetName().required(),
  schedules: Joi.array()
    .items(snapshotSchedule)
    .max(4)
    .unique((a: SnapshotSchedule, b: SnapshotSchedule) => a.kind === b.kind)
    .required(),
}).id('SnapshotScheduleList');

const scheduleEntry = {
  frequency: frequency().required(),
  lastRunAt: isoTime().allow(null).required(),
  nextRunAt: isoTime().allow(null).required(),
};

export const storageScheduleList = Joi.object<StorageScheduleList, true>({
  scrub: Joi.array()
    .items(Joi.object({ pool: Joi.string().required(), ...scheduleEntry }))
    .required(),
  smartSelfTest: Joi.object(scheduleEntry).required(),
}).id('StorageScheduleList');

export const storageScheduleUpdate = Joi.object<StorageScheduleUpdate, true>({
  scrub: Joi.array()
    .items(Joi.object({ pool: Joi.string().min(1).max(64).required(), frequency: frequency().required() }))
    .max(100),
  smartSelfTest: Joi.object({ frequency: frequency().required() }),
})
  .min(1)
  .id('StorageScheduleUpdate');

export const storageAlert = Joi.object<StorageAlert, true>({
  key: Joi.string().required(),
  kind: Joi.string().valid('pool.health', 'pool.capacity', 'smart', 'scrub.errors').required(),
  severity: Joi.string().valid('warning', 'critical').required(),
  subject: Joi.string().required(),
  message: Joi.string().required(),
  since: isoTime().required(),
  muted: Joi.boolean().required(),
}).id('StorageAlert');

export const storageHealth = Joi.object<StorageHealth, true>({
  alerts: Joi.array().items(storageAlert).required(),
  disks: Joi.array()
    .items(Joi.object({ name: Joi.string().required(), path: Joi.string().required(), smart: Joi.object().unknown(true).required() }))
    .required(),
}).id('StorageHealth');
