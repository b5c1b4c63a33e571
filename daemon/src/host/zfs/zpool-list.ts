import { parseZfsSize } from './sizes.ts';

export interface PoolListRow {
  name: string;
  sizeBytes: number | null;
  allocatedBytes: number | null;
  freeBytes: number | null;
  health: string;
  guid: string;
}

/** The columns the driver asks `zpool list -H [-p] -o` for, in this order. */
export const poolListColumns = ['name', 'size', 'allocated', 'free', 'capacity', 'health', 'guid'] as const;

/**
 * Parses tab-separated `zpool list -H -o name,size,allocated,free,capacity,health,guid`: exact bytes with
 * OpenZFS's `-p`, rounded human sizes from zfs-fuse (which has no `-p` on list).
 */
export function parseZpoolList(text: string): PoolListRow[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [name = '', size = '-', allocated = '-', free = '-', , health = 'UNKNOWN', guid = ''] = line.split('\t');
      return { name, sizeBytes: parseZfsSize(size), allocatedBytes: parseZfsSize(allocated), freeBytes: parseZfsSize(free), health, guid };
    });
}
