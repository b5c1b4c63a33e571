import { ApiError } from '../../../../shared/src/client.ts';
import { describeError, t } from '../../lib/i18n/i18n.svelte.ts';

const features = { scrubPause: 'storage.capability.scrubPause', readOnlyImport: 'storage.capability.readOnlyImport' } as const;

/** Like describeError, but says in words which ability the running ZFS lacks (zfs-fuse has no scrub pause, no read-only import). */
export function describeStorageError(err: unknown): string {
  if (err instanceof ApiError && err.code === 'storage.capability.unsupported') {
    const feature = err.problem.params?.feature;
    if (feature === 'scrubPause' || feature === 'readOnlyImport') return t(features[feature]);
  }
  return describeError(err);
}
