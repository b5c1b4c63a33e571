import { defaultAppQuotaMiB, type AppManifest } from '../../../../shared/src/api/apps/app-manifest.ts';
import type { AppQuota } from '../../../../shared/src/api/apps/apps.ts';

const mib = 1024 * 1024;

/** An app's default quota: what its manifest asks for, else the house's (docs/apps.md). */
export const defaultQuotaBytes = (manifest: AppManifest): number => (manifest.quotaMiB ?? defaultAppQuotaMiB) * mib;

/** The quota in force: an administrator's own (0 for none), else the app's default; null for none. */
export function effectiveQuota(own: number | null, defaultBytes: number): number | null {
  if (own === null) return defaultBytes;
  return own === 0 ? null : own;
}

export function appQuotaOf(manifest: AppManifest, own: number | null, usedBytes: number | null): AppQuota {
  const defaultBytes = defaultQuotaBytes(manifest);
  return { bytes: own, defaultBytes, effectiveBytes: effectiveQuota(own, defaultBytes), usedBytes };
}
