import type { BigIntStats } from 'node:fs';
import { lstat } from '../../host/nofollow-fs.ts';
import type { EntryType, FileEntry, LinkTarget } from '../../../../shared/src/api/files/files.ts';

export function typeOf(s: BigIntStats): EntryType {
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'folder';
  if (s.isSymbolicLink()) return 'symlink';
  return 'other';
}

/**
 * An entry as the API shows it. A link inside the share shows what it points to (with
 * `link: 'inside'`); a link out of the share or to nothing shows as a bare symlink.
 */
export function entryOf(rel: string, name: string, own: BigIntStats, link: LinkTarget | null, target: BigIntStats | null): FileEntry {
  const shown = link === 'inside' && target ? target : own;
  return {
    name,
    path: rel,
    type: typeOf(shown),
    size: shown.isFile() ? Number(shown.size) : 0,
    modified: new Date(Number(shown.mtimeNs / 1_000_000n)).toISOString(),
    link,
  };
}

/** The stat of an inside link's target (null for anything else). */
export async function targetStat(link: LinkTarget | null, target: string): Promise<BigIntStats | null> {
  if (link !== 'inside') return null;
  // The target is a real path: a link found there now was swapped in, and is not followed.
  return lstat(target, { bigint: true }).catch(() => null);
}

/**
 * Strong validator of a file's content: same inode, size and nanosecond modification time
 * means the same bytes for anything written through the usual calls.
 */
export function etagOf(s: Pick<BigIntStats, 'ino' | 'size' | 'mtimeNs'>): string {
  return `"${s.ino.toString(36)}-${s.size.toString(36)}-${s.mtimeNs.toString(36)}"`;
}
