import Joi from 'joi';
import { id, isoTime } from '../common.ts';

export type PoolLayout = 'mirror' | 'raidz1' | 'raidz2' | 'stripe';
export type StoragePlanKind = 'pool.create' | 'pool.import.readonly' | 'pool.import' | 'pool.export' | 'disk.replace' | 'share.create' | 'share.delete';

export type StoragePlanRequest =
  | { kind: 'pool.create'; pool: string; layout: PoolLayout; disks: string[] }
  | { kind: 'pool.import.readonly' | 'pool.import'; pool: string }
  | { kind: 'pool.export'; pool: string }
  | { kind: 'disk.replace'; pool: string; oldDisk: string; newDisk: string };

export type SharePlanRequest =
  | {
      kind: 'share.create';
      pool: string;
      name: string;
      quotaBytes?: number | null;
      /** Offered over SMB; on unless the client says otherwise, so a new share can be mounted at once. */
      smbEnabled?: boolean;
      /** Offered over SFTP; on unless the client says otherwise. */
      sftpEnabled?: boolean;
    }
  | { kind: 'share.delete'; shareId: number; destroyData: boolean };

export interface StoragePlanPreview {
  planId: string;
  kind: StoragePlanKind;
  /** The exact commands, as argument arrays, in the order they run. */
  commands: string[][];
  /** Disks the guard rechecks before each command. */
  disks: string[];
  /** Snapshots (full names) the plan destroys. */
  destroys: string[];
  warnings: PlanWarning[];
  expiresAt: string;
}

export const planWarningCodes = [
  'stripe.no_redundancy',
  'import.writable',
  'export.shares_unavailable',
  'replace.resilver',
  'share.data_kept',
  'share.destroys',
  'share.held_snapshots',
] as const;

/** What a plan's preview warns of: a code the UI translates with its params, and the English text. */
export interface PlanWarning {
  code: (typeof planWarningCodes)[number];
  params: Record<string, string | number>;
  text: string;
}

export const planWarning = Joi.object<PlanWarning, true>({
  code: Joi.string()
    .valid(...planWarningCodes)
    .required(),
  params: Joi.object().pattern(Joi.string(), [Joi.string(), Joi.number()]).required(),
  text: Joi.string().required(),
}).id('PlanWarning');

/** Pool names as ZFS accepts them, minus the reserved ones. */
const poolName = () =>
  Joi.string()
    .pattern(/^[A-Za-z][A-Za-z0-9_.:-]{0,62}$/)
    .invalid('mirror', 'raidz', 'raidz1', 'raidz2', 'raidz3', 'spare', 'log', 'cache', 'draid');
const diskName = () => Joi.string().pattern(/^[A-Za-z0-9_.:-]{1,128}$/);

export const storagePlanRequest = Joi.alternatives<StoragePlanRequest>()
  .conditional('.kind', {
    switch: [
      {
        is: 'pool.create',
        then: Joi.object({
          kind: Joi.string().valid('pool.create').required(),
          pool: poolName().required(),
          layout: Joi.string().valid('mirror', 'raidz1', 'raidz2', 'stripe').required(),
          disks: Joi.array().items(diskName()).min(1).max(64).unique().required(),
        }),
      },
      { is: Joi.valid('pool.import.readonly', 'pool.import', 'pool.export'), then: Joi.object({ kind: Joi.string().required(), pool: poolName().required() }) },
      {
        is: 'disk.replace',
        then: Joi.object({
          kind: Joi.string().valid('disk.replace').required(),
          pool: poolName().required(),
          oldDisk: Joi.string().min(1).max(256).required(),
          newDisk: diskName().required(),
        }),
      },
    ],
    otherwise: Joi.object({ kind: Joi.string().valid('pool.create', 'pool.import.readonly', 'pool.import', 'pool.export', 'disk.replace').required() }).unknown(
      true,
    ),
  })
  .id('StoragePlanRequest') as unknown as Joi.Schema<StoragePlanRequest>; // joi's alternatives() loses the bound type

export const sharePlanRequest = Joi.alternatives<SharePlanRequest>()
  .conditional('.kind', {
    switch: [
      {
        is: 'share.create',
        then: Joi.object({
          kind: Joi.string().valid('share.create').required(),
          pool: poolName().required(),
          name: Joi.string()
            .pattern(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,79}$/)
            .required(),
          quotaBytes: Joi.number()
            .integer()
            .min(1024 * 1024)
            .allow(null),
          smbEnabled: Joi.boolean().default(true),
          sftpEnabled: Joi.boolean().default(true),
        }),
      },
      {
        is: 'share.delete',
        then: Joi.object({ kind: Joi.string().valid('share.delete').required(), shareId: id().required(), destroyData: Joi.boolean().required() }),
      },
    ],
    otherwise: Joi.object({ kind: Joi.string().valid('share.create', 'share.delete').required() }).unknown(true),
  })
  .id('SharePlanRequest') as unknown as Joi.Schema<SharePlanRequest>; // joi's alternatives() loses the bound type

export const storagePlanPreview = Joi.object<StoragePlanPreview, true>({
  planId: Joi.string().required(),
  kind: Joi.string().valid('pool.create', 'pool.import.readonly', 'pool.import', 'pool.export', 'disk.replace', 'share.create', 'share.delete').required(),
  commands: Joi.array().items(Joi.array().items(Joi.string())).required(),
  disks: Joi.array().items(Joi.string()).required(),
  destroys: Joi.array().items(Joi.string()).required(),
  warnings: Joi.array().items(planWarning).required(),
  expiresAt: isoTime().required(),
}).id('StoragePlanPreview');
