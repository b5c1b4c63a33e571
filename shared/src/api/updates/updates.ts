import Joi from 'joi';
import { hostToolErrors, isoTime } from '../common.ts';
import { jobSchema } from '../jobs/jobs.ts';
import { defineRoute } from '../route.ts';

/**
 * Updates of the box (spec 4.14): the box's own package from a signed channel or an uploaded
 * bundle, and the distribution's updates through apt. The index and bundle formats are in docs/updates.md.
 */

export type UpdateChannel = 'stable' | 'beta';

/** Why updates do not apply on this machine: a development daemon, or the box's package is not installed. */
/** Why updates do not apply: a development daemon, no package, or a data directory a rollback would take back. */
export type UpdatesNotApplicable = 'development' | 'notPackaged' | 'dataInSystem';

export interface UpdateSettings {
  channel: UpdateChannel;
  /** HH:mm in the box's time zone; the box adds its own delay of up to one hour. */
  checkTime: string;
  /** Installs the distribution's security updates after the daily check, with a snapshot first. */
  automaticSecurity: boolean;
}

/** One version of the box's package, as a channel's index or an uploaded bundle describes it. */
export interface BoxRelease {
  version: string;
  commit: string;
  published: string;
  notes: string;
}

/** A distribution package apt would upgrade. */
export interface DistributionUpdate {
  name: string;
  from: string;
  to: string;
  /** From a security archive (Debian-Security). */
  security: boolean;
}

export interface UpdateCheck {
  at: string;
  /** The channel's newer version of the box, or null when the installed one is current. */
  available: BoxRelease | null;
  distribution: DistributionUpdate[];
  /** What went wrong, as a problem code, when the check failed (the lists keep what was read). */
  error: { code: string; detail: string } | null;
}

export interface UploadedUpdate extends BoxRelease {
  architecture: string;
  uploadedAt: string;
}

export type UpdateHistoryState = 'running' | 'succeeded' | 'failed' | 'restored';

export interface UpdateHistoryEntry {
  id: number;
  kind: 'install' | 'restore';
  state: UpdateHistoryState;
  startedAt: string;
  finishedAt: string | null;
  /** The box's version before and after (after: null while running or when it did not change). */
  fromVersion: string;
  toVersion: string | null;
  /** Distribution packages upgraded (or meant to be). */
  distributionPackages: number;
  /** The snapshot taken before (install) or returned to (restore); null where the system is not on ZFS. */
  snapshot: string | null;
  /** Whether a failed install returned to its snapshot. */
  returned: boolean;
  error: string | null;
  jobId: number | null;
}

export interface RestorableSnapshot {
  /** Snapshot name (`service-update-<utc>`), the same on every system dataset. */
  name: string;
  createdAt: string;
  datasets: string[];
  held: boolean;
}

export interface UpdateStatus {
  installed: { version: string; commit: string };
  architecture: string;
  applies: boolean;
  notApplicable: UpdatesNotApplicable | null;
  settings: UpdateSettings;
  lastCheck: UpdateCheck | null;
  upload: UploadedUpdate | null;
  /** The install or restore job now running. */
  running: { jobId: number; kind: 'install' | 'restore' } | null;
  history: UpdateHistoryEntry[];
  /** The system datasets snapshotted before each install (empty where the system is not on ZFS). */
  systemDatasets: string[];
  snapshots: RestorableSnapshot[];
}

export interface InstallUpdateRequest {
  /** The box's package: the channel's newer version, the uploaded file, or neither. */
  box: 'channel' | 'upload' | 'none';
  /** Also upgrade the distribution's packages. */
  distribution: boolean;
}

export const updateChannels: readonly UpdateChannel[] = ['stable', 'beta'];
export const maxHistory = 50;
export const snapshotNamePattern = /^service-update-\d{8}T\d{6}Z$/;

const release = {
  version: Joi.string().max(100).required(),
  commit: Joi.string().max(64).allow('').required(),
  published: isoTime().required(),
  notes: Joi.string().max(10_000).allow('').required(),
};

export const updateSettingsSchema = Joi.object<UpdateSettings, true>({
  channel: Joi.string()
    .valid(...updateChannels)
    .required(),
  checkTime: Joi.string()
    .pattern(/^([01]\d|2[0-3]):[0-5]\d$/)
    .required(),
  automaticSecurity: Joi.boolean().required(),
}).id('UpdateSettings');

const boxReleaseSchema = Joi.object<BoxRelease, true>(release).id('BoxRelease');

const distributionUpdateSchema = Joi.object<DistributionUpdate, true>({
  name: Joi.string().required(),
  from: Joi.string().allow('').required(),
  to: Joi.string().required(),
  security: Joi.boolean().required(),
}).id('DistributionUpdate');

const updateCheckSchema = Joi.object<UpdateCheck, true>({
  at: isoTime().required(),
  available: boxReleaseSchema.allow(null).required(),
  distribution: Joi.array().items(distributionUpdateSchema).required(),
  error: Joi.object({ code: Joi.string().required(), detail: Joi.string().allow('').required() })
    .allow(null)
    .required(),
}).id('UpdateCheck');

const uploadedUpdateSchema = Joi.object<UploadedUpdate, true>({ ...release, architecture: Joi.string().required(), uploadedAt: isoTime().required() }).id(
  'UploadedUpdate',
);

const historyEntrySchema = Joi.object<UpdateHistoryEntry, true>({
  id: Joi.number().integer().required(),
  kind: Joi.string().valid('install', 'restore').required(),
  state: Joi.string().valid('running', 'succeeded', 'failed', 'restored').required(),
  startedAt: isoTime().required(),
  finishedAt: isoTime().allow(null).required(),
  fromVersion: Joi.string().required(),
  toVersion: Joi.string().allow(null).required(),
  distributionPackages: Joi.number().integer().min(0).required(),
  snapshot: Joi.string().allow(null).required(),
  returned: Joi.boolean().required(),
  error: Joi.string().allow(null).required(),
  jobId: Joi.number().integer().allow(null).required(),
}).id('UpdateHistoryEntry');

const snapshotSchema = Joi.object<RestorableSnapshot, true>({
  name: Joi.string().required(),
  createdAt: isoTime().required(),
  datasets: Joi.array().items(Joi.string()).required(),
  held: Joi.boolean().required(),
}).id('RestorableSnapshot');

export const updateStatusSchema = Joi.object<UpdateStatus, true>({
  installed: Joi.object({ version: Joi.string().required(), commit: Joi.string().allow('').required() }).required(),
  architecture: Joi.string().required(),
  applies: Joi.boolean().required(),
  notApplicable: Joi.string().valid('development', 'notPackaged', 'dataInSystem').allow(null).required(),
  settings: updateSettingsSchema.required(),
  lastCheck: updateCheckSchema.allow(null).required(),
  upload: uploadedUpdateSchema.allow(null).required(),
  running: Joi.object({ jobId: Joi.number().integer().required(), kind: Joi.string().valid('install', 'restore').required() })
    .allow(null)
    .required(),
  history: Joi.array().items(historyEntrySchema).max(maxHistory).required(),
  systemDatasets: Joi.array().items(Joi.string()).required(),
  snapshots: Joi.array().items(snapshotSchema).required(),
}).id('UpdateStatus');

/** A channel's `index.json` and a bundle's: one release, with a package per architecture. */
export interface UpdateIndex extends BoxRelease {
  format: 1;
  packages: { architecture: string; file: string; sha256: string; size: number }[];
}

export const updateIndexSchema = Joi.object<UpdateIndex, true>({
  format: Joi.number().valid(1).required(),
  ...release,
  packages: Joi.array()
    .items(
      Joi.object({
        architecture: Joi.string()
          .pattern(/^[a-z0-9-]+$/)
          .max(32)
          .required(),
        file: Joi.string()
          .pattern(/^[A-Za-z0-9][A-Za-z0-9._+~-]*\.deb$/)
          .max(200)
          .required(),
        sha256: Joi.string().hex().length(64).required(),
        size: Joi.number()
          .integer()
          .min(1)
          .max(1024 ** 3)
          .required(),
      }),
    )
    .min(1)
    .max(20)
    .required(),
}).options({ allowUnknown: true });

/** Largest update bundle accepted (the box's package with its bundled Node and dependencies). */
export const maxBundleBytes = 512 * 1024 * 1024;

const snapshotParams = Joi.object<{ name: string }, true>({ name: Joi.string().pattern(snapshotNamePattern).required() });

export const updatesRoutes = {
  status: defineRoute({
    id: 'system.updates',
    method: 'GET',
    path: '/api/system/updates',
    access: 'admin',
    summary:
      'Installed version, channel, daily check, last check result, uploaded file waiting, running update, history, restorable snapshots, whether updates apply here',
    status: 200,
    response: updateStatusSchema,
    errors: [],
  }),
  check: defineRoute({
    id: 'system.checkUpdates',
    method: 'POST',
    path: '/api/system/updates/check',
    access: 'admin',
    summary: "Reads the channel's signed index and the distribution's lists now (apt-get update); installs nothing",
    status: 200,
    response: updateStatusSchema,
    errors: ['system.updates.not_applicable', ...hostToolErrors],
  }),
  setSettings: defineRoute({
    id: 'system.setUpdateSettings',
    method: 'PUT',
    path: '/api/system/updates/settings',
    access: 'admin',
    summary: 'Sets the channel (stable or beta), the daily check time and whether security updates install by themselves',
    body: updateSettingsSchema,
    status: 200,
    response: updateStatusSchema,
    errors: [],
  }),
  upload: defineRoute({
    id: 'system.uploadUpdate',
    method: 'PUT',
    path: '/api/system/updates/upload',
    access: 'admin',
    summary: 'Uploads an update bundle (docs/updates.md); it waits until installed or discarded and replaces one waiting before',
    description:
      'The body is the bundle: a tar archive of `index.json`, its detached signature `index.json.sig` and the package it names. Refused when unsigned or signed by an unknown key, for another architecture, or not newer than the installed version.',
    body: { raw: true, contentType: 'application/x-tar' },
    bodyLimit: maxBundleBytes,
    status: 200,
    response: updateStatusSchema,
    errors: [
      'request.body.too_large',
      'system.update.invalid',
      'system.update.unsigned',
      'system.update.architecture',
      'system.update.not_newer',
      'system.update.hash_mismatch',
    ],
  }),
  discardUpload: defineRoute({
    id: 'system.discardUpdate',
    method: 'DELETE',
    path: '/api/system/updates/upload',
    access: 'admin',
    summary: 'Discards the uploaded update file',
    status: 200,
    response: updateStatusSchema,
    errors: ['system.update.not_found'],
  }),
  install: defineRoute({
    id: 'system.installUpdates',
    method: 'POST',
    path: '/api/system/updates/install',
    access: 'admin',
    summary: "Installs the channel's version or the uploaded file and/or the distribution's updates as a job, after a snapshot of the system datasets",
    description:
      'A failed step returns the system datasets to the snapshot. When the box’s own package changed, the daemon restarts and `system/updates` says so first (`restarting`): pages reconnect.',
    body: Joi.object<InstallUpdateRequest, true>({
      box: Joi.string().valid('channel', 'upload', 'none').required(),
      distribution: Joi.boolean().required(),
    }).id('InstallUpdateRequest'),
    status: 202,
    response: jobSchema,
    errors: ['system.updates.not_applicable', 'system.updates.busy', 'system.updates.data_in_system', 'system.update.not_found', 'system.updates.nothing'],
  }),
  restore: defineRoute({
    id: 'system.restoreUpdateSnapshot',
    method: 'POST',
    path: '/api/system/updates/snapshots/{name}/restore',
    access: 'admin',
    summary: 'Returns the system datasets to a snapshot taken before an update, as a job; the daemon restarts afterwards',
    params: snapshotParams,
    status: 202,
    response: jobSchema,
    errors: ['system.updates.not_applicable', 'system.updates.busy', 'system.updates.data_in_system', 'system.snapshot.not_found'],
  }),
};
