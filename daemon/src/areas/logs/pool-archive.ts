import path from 'node:path';
import type { PoolList } from '../../../../shared/src/api/storage/pools.ts';
import type { LogArchiveLocation } from './logs.service.ts';

/** The folder on a pool's root dataset that holds the log archive, beside the shares and homes. */
export const archiveFolder = '.cellar-logs';

/**
 * The log archive on the pools as the storage area last read them: a healthy pool whose root
 * dataset is mounted read-write can hold it; `null` for the pool means the first such pool.
 */
export function poolArchive(pools: () => PoolList | null): LogArchiveLocation {
  const usable = () =>
    (pools()?.pools ?? []).flatMap((p) => {
      const root = p.datasets.find((d) => d.name === p.name);
      return p.health === 'ONLINE' && root?.mountpoint && root.mounted && !root.readOnly ? [{ name: p.name, mountpoint: root.mountpoint }] : [];
    });
  return {
    pools: () => usable().map((p) => p.name),
    dir: (pool) => {
      const found = pool === null ? usable()[0] : usable().find((p) => p.name === pool);
      return found ? path.join(found.mountpoint, archiveFolder) : null;
    },
  };
}
