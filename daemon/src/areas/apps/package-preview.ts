import type { AppPackagePreview, BackendChange, ListChange, PackageAction } from '../../../../shared/src/api/apps/app-packages.ts';
import { compareVersions, type AppManifest, type StorageRequest } from '../../../../shared/src/api/apps/app-manifest.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { KeptPackage } from './package-store.ts';

function listChange<T>(next: T[], prev: T[]): ListChange<T> {
  return { added: next.filter((x) => !prev.includes(x)), removed: prev.filter((x) => !next.includes(x)), kept: next.filter((x) => prev.includes(x)) };
}

function storageChange(next: StorageRequest[], prev: StorageRequest[]): AppPackagePreview['storage'] {
  const before = new Map(prev.map((r) => [r.storageId, r]));
  const after = new Set(next.map((r) => r.storageId));
  const same = (a: StorageRequest, b: StorageRequest) => a.access === b.access && a.purpose === b.purpose;
  return {
    added: next.filter((r) => !before.has(r.storageId)),
    removed: prev.filter((r) => !after.has(r.storageId)),
    changed: next.filter((r) => before.has(r.storageId) && !same(r, before.get(r.storageId) as StorageRequest)),
    kept: next.filter((r) => before.has(r.storageId) && same(r, before.get(r.storageId) as StorageRequest)),
  };
}

/** The installed app as a preview compares against: its manifest and the source it came from. */
export interface InstalledApp {
  manifest: AppManifest;
  /** Catalog id; null: uploaded by hand. */
  source: string | null;
}

/** A backend is the same when it runs the same command: anything else is code the administrator consents to again. */
export function backendChange(next: AppManifest, installed: AppManifest | null): BackendChange {
  const before = installed?.backend ?? null;
  if (next.backend === null) return before === null ? 'none' : 'removed';
  if (before === null) return 'added';
  return JSON.stringify(next.backend) === JSON.stringify(before) ? 'kept' : 'changed';
}

/**
 * What installing `next` does against the installed manifest: a new install, an update, a
 * reinstall of the same version or a downgrade. A downgrade whose data version differs is
 * refused: the older version cannot read data the newer one migrated.
 */
export function actionOf(next: AppManifest, installed: AppManifest | null): PackageAction {
  if (!installed) return 'install';
  const order = compareVersions(next.version, installed.version);
  if (order > 0) return 'update';
  if (order === 0) return 'reinstall';
  if (next.dataVersion !== installed.dataVersion)
    throw new ProblemError('app.package.downgrade_unsupported', {
      installedVersion: installed.version,
      installedDataVersion: installed.dataVersion,
      dataVersion: next.dataVersion,
    });
  return 'downgrade';
}

export function previewOf(pkg: KeptPackage, app: InstalledApp | null): AppPackagePreview {
  const installed = app?.manifest ?? null;
  return {
    packageId: pkg.id,
    manifest: pkg.manifest,
    size: pkg.size,
    unpackedBytes: pkg.unpackedBytes,
    files: pkg.files,
    icon: pkg.icon,
    action: actionOf(pkg.manifest, installed),
    installedVersion: installed?.version ?? null,
    permissions: listChange(pkg.manifest.permissions, installed?.permissions ?? []),
    storage: storageChange(pkg.manifest.storage, installed?.storage ?? []),
    backend: backendChange(pkg.manifest, installed),
    source: pkg.source,
    installedSource: app?.source ?? null,
    expiresAt: new Date(pkg.expiresAt).toISOString(),
  };
}
