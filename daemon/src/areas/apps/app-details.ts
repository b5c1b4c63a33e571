import type { AppStorageMapping } from '../../../../shared/src/api/apps/app-storage.ts';
import type { AppDetails } from '../../../../shared/src/api/apps/apps.ts';
import { appQuotaOf } from './app-quota.ts';
import type { AppAccountRow, AppMappingRow, AppRow } from './app.model.ts';

/** An installed app as administrators see it (GET /api/apps); `usedBytes` of its volume where the caller measured it. */
export function appDetailsOf(row: AppRow, account: AppAccountRow, mappings: readonly AppMappingRow[], usedBytes: number | null = null): AppDetails {
  const manifest = row.parsedManifest;
  const revoked = row.revokedPermissions;
  const mappingOf = (storageId: string): AppStorageMapping | null => {
    const m = mappings.find((x) => x.storageId === storageId);
    return m ? { shareId: m.shareId, path: m.path, access: m.access } : null;
  };
  return {
    id: row.id,
    manifest,
    state: row.state,
    uid: account.uid,
    dataset: account.dataset ?? '',
    permissions: { granted: manifest.permissions.filter((p) => !revoked.includes(p)), revoked: manifest.permissions.filter((p) => revoked.includes(p)) },
    storage: manifest.storage.map((request) => ({ ...request, mapping: mappingOf(request.storageId) })),
    logLevel: row.logLevel,
    updatePolicy: row.updatePolicy,
    previousVersion: row.previousManifest ? (JSON.parse(row.previousManifest) as { version: string }).version : null,
    source: row.sourceCatalog ?? null,
    quota: appQuotaOf(manifest, account.quotaBytes, usedBytes),
    installedAt: row.installedAt,
    updatedAt: row.updatedAt,
  };
}
