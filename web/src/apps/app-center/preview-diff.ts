import type { AppPackagePreview } from '../../../../shared/src/api/apps/app-packages.ts';
import type { AppPermission, StorageRequest } from '../../../../shared/src/api/apps/app-manifest.ts';

export type Change = 'added' | 'removed' | 'changed' | 'kept';

export interface PermissionRow {
  permission: AppPermission;
  change: Change;
}

export interface StorageRow {
  request: StorageRequest;
  change: Change;
  /** For a changed request: what the installed version asked for. */
  before: StorageRequest | null;
}

// New and changed asks first: they are what the administrator consents to now.
const order: Record<Change, number> = { added: 0, changed: 1, removed: 2, kept: 3 };
const byChange = <T extends { change: Change }>(a: T, b: T) => order[a.change] - order[b.change];

/** Every permission the preview names, with what changes against the installed version. */
export function permissionRows(preview: AppPackagePreview): PermissionRow[] {
  const { added, removed, kept } = preview.permissions;
  return [
    ...added.map((permission) => ({ permission, change: 'added' as const })),
    ...removed.map((permission) => ({ permission, change: 'removed' as const })),
    ...kept.map((permission) => ({ permission, change: 'kept' as const })),
  ].sort(byChange);
}

/**
 * Every storage request the preview names. The preview holds only the new form of a changed
 * request; `installed` (the installed version's requests, when known) supplies the old one.
 */
export function storageRows(preview: AppPackagePreview, installed: StorageRequest[] = []): StorageRow[] {
  const { added, removed, changed, kept } = preview.storage;
  const before = (request: StorageRequest) => installed.find((r) => r.storageId === request.storageId) ?? null;
  return [
    ...added.map((request) => ({ request, change: 'added' as const, before: null })),
    ...changed.map((request) => ({ request, change: 'changed' as const, before: before(request) })),
    ...removed.map((request) => ({ request, change: 'removed' as const, before: null })),
    ...kept.map((request) => ({ request, change: 'kept' as const, before: null })),
  ].sort(byChange);
}

/**
 * What installing grants: every permission the new version asks for, except those an
 * administrator revoked from the installed version, which stay revoked across an update.
 */
export function consentPermissions(preview: AppPackagePreview, revoked: readonly AppPermission[] = []): AppPermission[] {
  return [...preview.permissions.added, ...preview.permissions.kept.filter((p) => !revoked.includes(p))];
}

/**
 * Whether an update asks for more than the installed version has, so that its preview must ask
 * the administrator first instead of installing at once: a new permission, new or changed storage,
 * a backend that is new or runs another command, or another source than the installed app's.
 */
export function updateNeedsConsent(preview: AppPackagePreview): boolean {
  return (
    preview.permissions.added.length > 0 ||
    preview.storage.added.length > 0 ||
    preview.storage.changed.length > 0 ||
    preview.backend === 'added' ||
    preview.backend === 'changed' ||
    preview.source !== preview.installedSource
  );
}

/** Permissions the new version still asks for that stay revoked. */
export function staysRevoked(preview: AppPackagePreview, revoked: readonly AppPermission[]): AppPermission[] {
  return preview.permissions.kept.filter((p) => revoked.includes(p));
}

/** An icon as an <img> source: shown as an image, where no script of the SVG could ever run. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
