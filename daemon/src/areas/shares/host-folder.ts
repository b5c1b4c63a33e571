import { realpath, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { ProblemError } from '../../core/problem-error.ts';
import { trashFolderName } from './share-layout.ts';

/** True when one of two real paths is the other or lies inside it. */
export function overlaps(a: string, b: string): boolean {
  const inside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
  return inside(a, b) || inside(b, a);
}

/**
 * The host's own trees: a share there (or above one, like `/` or `/var`) would put users' ACLs and
 * Samba over the system's configuration, programs and state (`/etc/shadow`, `/root/.ssh`).
 */
const systemTrees = [
  '/etc',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/boot',
  '/dev',
  '/proc',
  '/sys',
  '/run',
  '/root',
  '/var/lib',
  '/var/log',
  '/var/cache',
  '/var/spool',
  '/var/backups',
  '/var/mail',
];

/** Whether a real path is one of the host's own trees, inside one, or holds one. */
export function isSystemFolder(real: string): boolean {
  return systemTrees.some((tree) => overlaps(real, tree));
}

/**
 * Checks a host folder offered as a share and answers its real path: absolute, existing,
 * a folder, outside the host's own trees, and clear of the data directory (which holds the database and secrets) and
 * of every other share, so no share ever reaches into another or into the box's state.
 */
export async function checkHostFolder(hostPath: string, dataDir: string, otherShares: readonly { id: number; hostPath: string }[]): Promise<string> {
  if (hostPath.includes('\0') || !path.isAbsolute(hostPath)) throw new ProblemError('fs.share.folder_invalid', { reason: 'notAbsolute' });
  let real: string;
  try {
    real = await realpath(hostPath);
  } catch {
    throw new ProblemError('fs.share.folder_invalid', { reason: 'missing' });
  }
  if (!(await stat(real)).isDirectory()) throw new ProblemError('fs.share.folder_invalid', { reason: 'notFolder' });
  // Recycle bins live in `.cellar-trash` folders beside shares: a share there would reach into other shares' bins.
  if (real.split(path.sep).includes(trashFolderName)) throw new ProblemError('fs.share.folder_invalid', { reason: 'recycleBin' });
  const dataReal = await realpath(dataDir).catch(() => path.resolve(dataDir));
  if (overlaps(real, dataReal))
    throw new ProblemError('fs.share.folder_overlaps', { shareId: null }, { detail: 'The folder overlaps the data directory of the box' });
  const other = otherShares.find((s) => overlaps(real, s.hostPath));
  if (other) throw new ProblemError('fs.share.folder_overlaps', { shareId: other.id });
  if (isSystemFolder(real)) throw new ProblemError('fs.share.folder_invalid', { reason: 'system' });
  return real;
}

/** Free bytes for unprivileged users on the share's file system; null when unreadable (folder gone). */
export async function availableBytes(hostPath: string): Promise<number | null> {
  try {
    const s = await statfs(hostPath);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}
