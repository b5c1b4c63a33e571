import Joi from 'joi';
import { appManifestSchema, appPermissions, storageRequestSchema, type AppManifest, type AppPermission, type StorageRequest } from './app-manifest.ts';
import { hostToolErrors, isoTime } from '../common.ts';
import { jobSchema } from '../jobs/jobs.ts';
import { defineRoute } from '../route.ts';

/** Uploaded app packages: received, checked, previewed, kept 15 minutes, installed as a job. */

/** Limits of the spec for an uploaded package; the entry cap is ours (a package is a web app, not a disk image). */
export const packageLimits = { bytes: 256 * 1024 * 1024, unpackedBytes: 512 * 1024 * 1024, entries: 20_000, keptMinutes: 15 } as const;

/** What installing the package would do to the box's copy of the app. */
export type PackageAction = 'install' | 'update' | 'reinstall' | 'downgrade';

/** What the package does to the app's backend against the installed version (`none`: neither has one). */
export type BackendChange = 'none' | 'added' | 'changed' | 'removed' | 'kept';

export interface ListChange<T> {
  added: T[];
  removed: T[];
  kept: T[];
}

export interface AppPackagePreview {
  packageId: string;
  manifest: AppManifest;
  /** Bytes of the package file and of its unpacked files. */
  size: number;
  unpackedBytes: number;
  files: number;
  /** The package's icon.svg as text (checked to hold no script); shown as an image. */
  icon: string;
  action: PackageAction;
  installedVersion: string | null;
  /** Permissions the new version asks for against the installed one (all added for a new install). */
  permissions: ListChange<AppPermission>;
  /** Storage requests by storageId; `changed` holds those whose access or purpose differ. */
  storage: ListChange<StorageRequest> & { changed: StorageRequest[] };
  /** The backend the new version runs against the installed one (`changed`: another command); a new or changed one needs consent as on install. */
  backend: BackendChange;
  /** The catalog the package was taken from (its id); null: uploaded by hand. */
  source: string | null;
  /** The catalog the installed version came from; null when uploaded by hand or not installed. An update from another source needs `switchSource`. */
  installedSource: string | null;
  /** The package is discarded after this; only its uploader may read or install it. */
  expiresAt: string;
}

const packageIdParams = Joi.object<{ packageId: string }, true>({
  packageId: Joi.string()
    .pattern(/^[0-9a-f]{32}$/, 'package id')
    .required(),
});

const storageRequestList = Joi.array().items(storageRequestSchema);

export const appPackagePreviewSchema = Joi.object<AppPackagePreview, true>({
  packageId: Joi.string().required(),
  manifest: appManifestSchema.required(),
  size: Joi.number().integer().min(0).required(),
  unpackedBytes: Joi.number().integer().min(0).required(),
  files: Joi.number().integer().min(0).required(),
  icon: Joi.string().required(),
  action: Joi.string().valid('install', 'update', 'reinstall', 'downgrade').required(),
  installedVersion: Joi.string().allow(null).required(),
  permissions: Joi.object({
    added: Joi.array()
      .items(Joi.string().valid(...appPermissions))
      .required(),
    removed: Joi.array()
      .items(Joi.string().valid(...appPermissions))
      .required(),
    kept: Joi.array()
      .items(Joi.string().valid(...appPermissions))
      .required(),
  }).required(),
  storage: Joi.object({
    added: storageRequestList.required(),
    removed: storageRequestList.required(),
    changed: storageRequestList.required(),
    kept: storageRequestList.required(),
  }).required(),
  backend: Joi.string().valid('none', 'added', 'changed', 'removed', 'kept').required(),
  source: Joi.string().allow(null).required(),
  installedSource: Joi.string().allow(null).required(),
  expiresAt: isoTime().required(),
}).id('AppPackagePreview');

/** Who may use a new app, and where every app's data lives (the first install names the pool). */
export interface InstallAppRequest {
  /** The app pool; required for the first app, and must be the app pool after that. */
  pool?: string;
  /** Who may use a new app: everybody (the built-in group users) or administrators only. Updates keep the grants. */
  access?: 'everybody' | 'admins';
  /** An installed app takes versions only from its own source (catalog, or upload by hand); true takes this package's source as the app's new one. */
  switchSource?: boolean;
}

const packageErrors = ['app.package.not_found'] as const;

export const appPackageRoutes = {
  uploadPackage: defineRoute({
    id: 'apps.uploadPackage',
    method: 'PUT',
    path: '/api/apps/packages',
    access: 'admin',
    summary: 'Uploads a .serviceapp package, unpacks and checks it, and answers its preview; kept 15 minutes for the uploader',
    description:
      'The body is the package file (a gzip-compressed tar). The package is unpacked as it arrives, every entry checked before it is written, and a refused package leaves nothing behind: no absolute paths, no `..`, no links leaving the package, no devices, FIFOs or set-id bits, no names that differ in case only; at most 512 MB and 20,000 entries unpacked. See docs/apps.md for the format.',
    body: { raw: true, contentType: 'application/gzip' },
    bodyLimit: packageLimits.bytes,
    status: 200,
    response: appPackagePreviewSchema,
    errors: [
      'request.body.too_large',
      'app.package.invalid',
      'app.package.entry_refused',
      'app.package.id_reserved',
      'app.package.icon_invalid',
      'app.package.downgrade_unsupported',
      'app.package.box_too_old',
    ],
  }),
  package: defineRoute({
    id: 'apps.package',
    method: 'GET',
    path: '/api/apps/packages/{packageId}',
    access: 'admin',
    summary: 'The preview of an uploaded package while it is kept',
    params: packageIdParams,
    status: 200,
    response: appPackagePreviewSchema,
    errors: packageErrors,
  }),
  discardPackage: defineRoute({
    id: 'apps.discardPackage',
    method: 'DELETE',
    path: '/api/apps/packages/{packageId}',
    access: 'admin',
    summary: 'Discards an uploaded package',
    params: packageIdParams,
    status: 204,
    errors: packageErrors,
  }),
  install: defineRoute({
    id: 'apps.install',
    method: 'POST',
    path: '/api/apps/packages/{packageId}/install',
    access: 'admin',
    summary: 'Installs or updates the app of a kept package as a job',
    description:
      'The first app needs `pool`: every app keeps its data in a dataset `<pool>/apps/<id>` owned by an account of its own. `access` decides who may use a new app (everybody by default). An update snapshots the dataset first and returns to it, with the previous version, when a step fails.',
    params: packageIdParams,
    body: Joi.object<InstallAppRequest, true>({
      pool: Joi.string().max(255),
      access: Joi.string().valid('everybody', 'admins'),
      switchSource: Joi.boolean(),
    }).id('InstallAppRequest'),
    status: 202,
    response: jobSchema,
    errors: [
      ...packageErrors,
      'app.pool.required',
      'app.pool.fixed',
      'storage.pool.not_found',
      'app.app.busy',
      'app.package.downgrade_unsupported',
      'app.package.source_changed',
      ...hostToolErrors,
    ],
  }),
};
