import Joi from 'joi';
import { isoTime } from '../common.ts';

export type DiskReason = 'systemDisk' | 'mounted' | 'inPool' | 'signature' | 'partitioned' | 'tooSmall' | 'readOnly';
export type SmartHealth = 'passed' | 'failed' | 'unknown';

export interface SmartInfo {
  available: boolean;
  health: SmartHealth;
  temperatureC: number | null;
  powerOnHours: number | null;
  lastSelfTest: string | null;
}

export interface DiskVerdictReason {
  reason: DiskReason;
  /** What was found, for example the mount point, the pool or the signature types. */
  detail: string;
}

export interface StorageDisk {
  name: string;
  path: string;
  sizeBytes: number;
  model: string | null;
  serial: string | null;
  rotational: boolean;
  /** The disk guard's verdict: may a new pool use this disk? */
  usable: boolean;
  /** Every reason against; empty when usable. */
  reasons: DiskVerdictReason[];
  smart: SmartInfo;
}

export interface StorageDiskList {
  disks: StorageDisk[];
}

export interface Vdev {
  name: string;
  type: string;
  state: string;
  readErrors: number;
  writeErrors: number;
  checksumErrors: number;
  note: string | null;
  children: Vdev[];
}

export type VdevRole = 'data' | 'logs' | 'cache' | 'spares' | 'special' | 'dedup';

export interface VdevGroup {
  role: VdevRole;
  vdevs: Vdev[];
}

export type ScrubState = 'none' | 'scanning' | 'paused' | 'finished' | 'canceled';

export interface ScanProgress {
  function: 'scrub' | 'resilver' | null;
  state: ScrubState;
  percent: number | null;
  errors: number | null;
  text: string;
}

export interface Dataset {
  name: string;
  usedBytes: number | null;
  availableBytes: number | null;
  quotaBytes: number | null;
  refquotaBytes: number | null;
  mountpoint: string | null;
  mounted: boolean;
  readOnly: boolean;
}

export interface Pool {
  name: string;
  guid: string;
  health: string;
  sizeBytes: number | null;
  allocatedBytes: number | null;
  freeBytes: number | null;
  capacityPercent: number | null;
  status: string | null;
  action: string | null;
  errors: string | null;
  scan: ScanProgress;
  /** Whether the running ZFS can pause this pool's scrub. */
  scrubPausable: boolean;
  vdevGroups: VdevGroup[];
  datasets: Dataset[];
}

export interface PoolList {
  pools: Pool[];
  readAt: string;
}

export interface ImportablePool {
  name: string;
  id: string | null;
  state: string;
  status: string | null;
  action: string | null;
  vdevGroups: VdevGroup[];
  importable: boolean;
  /** Why not, when not importable (the tool's own words). */
  reasons: string[];
}

export interface ImportScan {
  pools: ImportablePool[];
}

const smartInfo = Joi.object<SmartInfo, true>({
  available: Joi.boolean().required(),
  health: Joi.string().valid('passed', 'failed', 'unknown').required(),
  temperatureC: Joi.number().allow(null).required(),
  powerOnHours: Joi.number().allow(null).required(),
  lastSelfTest: Joi.string().allow(null).required(),
}).id('SmartInfo');

export const storageDisk = Joi.object<StorageDisk, true>({
  name: Joi.string().required(),
  path: Joi.string().required(),
  sizeBytes: Joi.number().integer().min(0).required(),
  model: Joi.string().allow(null).required(),
  serial: Joi.string().allow(null).required(),
  rotational: Joi.boolean().required(),
  usable: Joi.boolean().required(),
  reasons: Joi.array()
    .items(
      Joi.object<DiskVerdictReason, true>({
        reason: Joi.string().valid('systemDisk', 'mounted', 'inPool', 'signature', 'partitioned', 'tooSmall', 'readOnly').required(),
        detail: Joi.string().allow('').required(),
      }),
    )
    .required(),
  smart: smartInfo.required(),
}).id('StorageDisk');

export const storageDiskList = Joi.object<StorageDiskList, true>({ disks: Joi.array().items(storageDisk).required() }).id('StorageDiskList');

const vdev: Joi.ObjectSchema<Vdev> = Joi.object<Vdev, true>({
  name: Joi.string().required(),
  type: Joi.string().required(),
  state: Joi.string().required(),
  readErrors: Joi.number().min(0).required(),
  writeErrors: Joi.number().min(0).required(),
  checksumErrors: Joi.number().min(0).required(),
  note: Joi.string().allow(null).required(),
  children: Joi.array().items(Joi.link('#Vdev')).required(),
}).id('Vdev');

const vdevGroup = Joi.object<VdevGroup, true>({
  role: Joi.string().valid('data', 'logs', 'cache', 'spares', 'special', 'dedup').required(),
  vdevs: Joi.array().items(vdev).required(),
}).id('VdevGroup');

export const scanProgress = Joi.object<ScanProgress, true>({
  function: Joi.string().valid('scrub', 'resilver').allow(null).required(),
  state: Joi.string().valid('none', 'scanning', 'paused', 'finished', 'canceled').required(),
  percent: Joi.number().allow(null).required(),
  errors: Joi.number().allow(null).required(),
  text: Joi.string().allow('').required(),
}).id('ScanProgress');

const dataset = Joi.object<Dataset, true>({
  name: Joi.string().required(),
  usedBytes: Joi.number().allow(null).required(),
  availableBytes: Joi.number().allow(null).required(),
  quotaBytes: Joi.number().allow(null).required(),
  refquotaBytes: Joi.number().allow(null).required(),
  mountpoint: Joi.string().allow(null).required(),
  mounted: Joi.boolean().required(),
  readOnly: Joi.boolean().required(),
}).id('Dataset');

export const pool = Joi.object<Pool, true>({
  name: Joi.string().required(),
  guid: Joi.string().allow('').required(),
  health: Joi.string().required(),
  sizeBytes: Joi.number().allow(null).required(),
  allocatedBytes: Joi.number().allow(null).required(),
  freeBytes: Joi.number().allow(null).required(),
  capacityPercent: Joi.number().allow(null).required(),
  status: Joi.string().allow(null).required(),
  action: Joi.string().allow(null).required(),
  errors: Joi.string().allow(null).required(),
  scan: scanProgress.required(),
  scrubPausable: Joi.boolean().required(),
  vdevGroups: Joi.array().items(vdevGroup).required(),
  datasets: Joi.array().items(dataset).required(),
}).id('Pool');

export const poolList = Joi.object<PoolList, true>({ pools: Joi.array().items(pool).required(), readAt: isoTime().required() }).id('PoolList');

export const importScan = Joi.object<ImportScan, true>({
  pools: Joi.array()
    .items(
      Joi.object<ImportablePool, true>({
        name: Joi.string().required(),
        id: Joi.string().allow(null).required(),
        state: Joi.string().required(),
        status: Joi.string().allow(null).required(),
        action: Joi.string().allow(null).required(),
        vdevGroups: Joi.array().items(vdevGroup).required(),
        importable: Joi.boolean().required(),
        reasons: Joi.array().items(Joi.string()).required(),
      }).id('ImportablePool'),
    )
    .required(),
}).id('ImportScan');
