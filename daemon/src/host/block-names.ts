import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * The kernel name (/proc/diskstats) of a device as ZFS names it: a path (/dev/loop3,
 * /dev/disk/by-id/ata-...-part1) or a bare name (sdb1, ata-...), resolved through its links.
 */
export async function kernelName(device: string): Promise<string | null> {
  const candidates = device.includes('/') ? [device] : [path.join('/dev', device), path.join('/dev/disk/by-id', device)];
  for (const candidate of candidates) {
    try {
      return path.basename(await realpath(candidate));
    } catch {
      // Not this one: try the next place.
    }
  }
  return null;
}
