import type { BigIntStats, Stats } from 'node:fs';
import { constants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { ProblemError } from '../../core/problem-error.ts';
import * as nf from '../nofollow-fs.ts';
import type { At, Entry, Folder, ShareFs } from './share-fs.ts';

interface HeldFolder extends Folder {
  readonly handle: FileHandle;
}

function held(folder: Folder): HeldFolder {
  if (!('handle' in folder)) throw new Error('a folder held by another identity was passed to this one');
  return folder as HeldFolder;
}

/** `.` for the folder itself: the magic link /proc/self/fd/N is a link, its `.` is the folder. */
function procPath(e: At): string {
  return nf.at(held(e.folder).handle, e.name ?? '.');
}

/** An entry as a path for one call: walked for a real path, relative to the held descriptor for an At. */
async function onPath<T>(e: Entry, fn: (p: string) => Promise<T>): Promise<T> {
  if (typeof e !== 'string') return fn(procPath(e));
  if (e === '/') return fn('/');
  return nf.inParent(e, (dir, name) => fn(nf.at(dir, name)));
}

async function openNoFollow(p: string, flags: number, mode?: number): Promise<FileHandle> {
  try {
    return await fsp.open(p, flags | constants.O_NOFOLLOW, mode);
  } catch (err) {
    if (nf.errno(err) === 'ELOOP') throw new ProblemError('fs.path.outside_share');
    throw err;
  }
}

function twoEntries(from: Entry, to: Entry, fn: (a: string, b: string) => Promise<void>): Promise<void> {
  return onPath(from, (a) => onPath(to, (b) => fn(a, b)));
}

const wrap = (handle: FileHandle): HeldFolder => ({ kind: 'folder', handle });

/** A folder held until `release`: for a user's worker, whose holds span requests. */
export async function holdFolder(abs: string): Promise<{ folder: Folder; release(): Promise<void> }> {
  const handle = await nf.openDir(abs);
  return { folder: wrap(handle), release: () => handle.close() };
}

/**
 * The calls in the daemon's own identity, in this process: for the box's own folders (recycle
 * bins, temporaries), for development machines where users have no accounts, and inside each
 * user's worker, which runs these very calls after dropping to the user's identity.
 */
export const daemonFs: ShareFs = {
  identity: 'daemon',
  withDir: (abs, fn) => nf.withDir(abs, (dir) => fn(wrap(dir))),
  inParent: (abs, fn) => nf.inParent(abs, (dir, name) => fn(wrap(dir), name)),
  lstat: (e): Promise<Stats> => onPath(e, (p) => fsp.lstat(p)),
  lstatBig: (e): Promise<BigIntStats> => onPath(e, (p) => fsp.lstat(p, { bigint: true })),
  open: (e, flags, mode) => onPath(e, (p) => openNoFollow(p, flags, mode)),
  readdir: (e) => onPath(e, (p) => fsp.readdir(p)),
  readlink: (e) => onPath(e, (p) => fsp.readlink(p)),
  mkdir: (e, mode = 0o777) => onPath(e, (p) => fsp.mkdir(p, { mode }).then(() => undefined)),
  rmdir: (e) => onPath(e, (p) => fsp.rmdir(p)),
  unlink: (e) => onPath(e, (p) => fsp.unlink(p)),
  symlink: (text, e) => onPath(e, (p) => fsp.symlink(text, p)),
  lutimes: (e, atime, mtime) => onPath(e, (p) => fsp.lutimes(p, atime, mtime)),
  // Through a descriptor opened without following: a link put in place is refused, not changed through.
  chmod: (e, mode) =>
    onPath(e, async (p) => {
      const handle = await openNoFollow(p, constants.O_RDONLY);
      try {
        await handle.chmod(mode);
      } finally {
        await handle.close();
      }
    }),
  rename: (from, to) => twoEntries(from, to, fsp.rename),
  link: (from, to) => twoEntries(from, to, fsp.link),
  removeTree: (e) => {
    if (typeof e === 'string') return nf.removeTree(e);
    if (e.name === undefined) throw new Error('removeTree needs an entry, not the held folder itself');
    return nf.removeAt(held(e.folder).handle, e.name);
  },
  syncFolder: (e) =>
    onPath(e, async (p) => {
      const handle = await fsp.open(p, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }),
};
