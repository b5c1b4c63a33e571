import { constants, type BigIntStats, type Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ProblemError } from '../core/problem-error.ts';

/**
 * File system calls on real absolute paths that never follow a symbolic link in any component.
 *
 * Node has no openat(): a path checked with realpath and then used by name can be redirected
 * by a folder swapped for a link in between (a share user with SFTP can do that in a loop).
 * Here every call walks its path from `/` one component at a time, each opened with
 * O_DIRECTORY | O_NOFOLLOW through `/proc/self/fd/<folder fd>/<name>`, and does the final
 * operation relative to the folder's descriptor. A link anywhere on the way is refused
 * (fs.path.outside_share), never followed, and a folder on the way that is gone or no folder any
 * more answers fs.entry.not_found; the last component is never followed either
 * (lstat, lutimes, open with O_NOFOLLOW, rename and unlink of the link itself).
 *
 * Callers pass real paths (their checks resolved them), so a path that holds a link is a
 * path that changed since its check. Linux only: it relies on /proc.
 */

/** Linux's O_PATH (Node does not export it): walking needs only search rights, as a path lookup does. */
export const oPath = 0o10000000;
// With O_PATH and O_NOFOLLOW a link is not followed; O_DIRECTORY then refuses it with ENOTDIR.
const dirFlags = oPath | constants.O_DIRECTORY | constants.O_NOFOLLOW;

export function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

function segmentsOf(abs: string): string[] {
  if (!path.isAbsolute(abs)) throw new Error(`nofollow-fs needs an absolute path: ${abs}`);
  const segments = abs.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new Error(`nofollow-fs refuses '..': ${abs}`);
  return segments;
}

/** The path through which the kernel reaches `name` inside the folder open as `dir`, without looking the folder up again. */
export function at(dir: FileHandle, name?: string): string {
  return name === undefined ? `/proc/self/fd/${dir.fd}` : `/proc/self/fd/${dir.fd}/${name}`;
}

/**
 * The path through which a command the daemon starts reaches an object the daemon holds open.
 * A child has its own /proc/self, so the daemon's pid is named; the descriptor must stay open
 * until the command has exited.
 */
export function childPath(fd: number): string {
  return `/proc/${process.pid}/fd/${fd}`;
}

/** Opens a child folder of an open folder; a link in its place is refused. */
export async function openDirAt(dir: FileHandle, name: string): Promise<FileHandle> {
  try {
    return await fsp.open(at(dir, name), dirFlags);
  } catch (err) {
    // Which refusal to name: a link in the way of a folder is the swap this module exists for.
    if (errno(err) === 'ENOTDIR' && (await fsp.lstat(at(dir, name)).catch(() => null))?.isSymbolicLink()) throw new ProblemError('fs.path.outside_share');
    throw err;
  }
}

/** Opens the folder at a real path, walking it component by component. */
export async function openDir(abs: string): Promise<FileHandle> {
  let dir = await fsp.open('/', dirFlags);
  try {
    for (const segment of segmentsOf(abs)) {
      const next = await openDirAt(dir, segment).catch((err: unknown) => {
        // A folder on the way that vanished or became something else since the caller's check: the entry is not there any more.
        throw errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR' ? new ProblemError('fs.entry.not_found') : err;
      });
      await dir.close();
      dir = next;
    }
    return dir;
  } catch (err) {
    await dir.close().catch(() => undefined);
    throw err;
  }
}

/** Runs `fn` with the folder of `abs` open and the last component's name; the folder is closed afterwards. */
export async function inParent<T>(abs: string, fn: (dir: FileHandle, name: string) => Promise<T>): Promise<T> {
  const name = path.basename(abs);
  if (name === '' || name === '..' || name === '.') throw new Error(`nofollow-fs needs an entry name: ${abs}`);
  const dir = await openDir(path.dirname(abs));
  try {
    return await fn(dir, name);
  } finally {
    await dir.close();
  }
}

/** Runs `fn` with the folder at `abs` open; `at(dir, name)` reaches its children. */
export async function withDir<T>(abs: string, fn: (dir: FileHandle) => Promise<T>): Promise<T> {
  const dir = await openDir(abs);
  try {
    return await fn(dir);
  } finally {
    await dir.close();
  }
}

export function lstat(abs: string): Promise<Stats>;
export function lstat(abs: string, options: { bigint: true }): Promise<BigIntStats>;
export function lstat(abs: string, options?: { bigint: true }): Promise<Stats | BigIntStats> {
  const of = (file: string): Promise<Stats | BigIntStats> => (options ? fsp.lstat(file, options) : fsp.lstat(file));
  if (abs === '/') return of('/');
  return inParent(abs, (dir, name) => of(at(dir, name)));
}

/** Opens a file; O_NOFOLLOW is always added. */
export function open(abs: string, flags: number, mode?: number): Promise<FileHandle> {
  return inParent(abs, async (dir, name) => {
    try {
      return await fsp.open(at(dir, name), flags | constants.O_NOFOLLOW, mode);
    } catch (err) {
      if (errno(err) === 'ELOOP') throw new ProblemError('fs.path.outside_share');
      throw err;
    }
  });
}

export async function readdir(abs: string): Promise<string[]> {
  return withDir(abs, (dir) => fsp.readdir(at(dir)));
}

export function readlink(abs: string): Promise<string> {
  return inParent(abs, (dir, name) => fsp.readlink(at(dir, name)));
}

/** mkdir of one level (mkdir never follows a link in its last component: a link there is EEXIST). */
export function mkdir(abs: string, mode = 0o777): Promise<void> {
  return inParent(abs, (dir, name) => fsp.mkdir(at(dir, name), { mode }).then(() => undefined));
}

export function rmdir(abs: string): Promise<void> {
  return inParent(abs, (dir, name) => fsp.rmdir(at(dir, name)));
}

export function unlink(abs: string): Promise<void> {
  return inParent(abs, (dir, name) => fsp.unlink(at(dir, name)));
}

export function symlink(text: string, abs: string): Promise<void> {
  return inParent(abs, (dir, name) => fsp.symlink(text, at(dir, name)));
}

/** Times of the entry itself (a link's own times, never its target's). */
export function lutimes(abs: string, atime: Date, mtime: Date): Promise<void> {
  return inParent(abs, (dir, name) => fsp.lutimes(at(dir, name), atime, mtime));
}

/** chmod through a descriptor opened without following: a link put in place is refused, not changed through. */
export async function chmod(abs: string, mode: number): Promise<void> {
  const handle = await open(abs, constants.O_RDONLY);
  try {
    await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}

function twoEntries<T>(from: string, to: string, fn: (a: string, b: string) => Promise<T>): Promise<T> {
  return inParent(from, (fromDir, fromName) => inParent(to, (toDir, toName) => fn(at(fromDir, fromName), at(toDir, toName))));
}

export function rename(from: string, to: string): Promise<void> {
  return twoEntries(from, to, fsp.rename);
}

/** link(2) does not follow a link given as the existing name: the link itself gets the new name. */
export function link(from: string, to: string): Promise<void> {
  return twoEntries(from, to, fsp.link);
}

/** Removes the entry `name` of an open folder and everything below it, descending by descriptors. */
export async function removeAt(dir: FileHandle, name: string): Promise<void> {
  const s = await fsp.lstat(at(dir, name)).catch((err: unknown) => {
    if (errno(err) === 'ENOENT') return null;
    throw err;
  });
  if (!s) return;
  if (!s.isDirectory()) {
    await fsp.unlink(at(dir, name)).catch((err: unknown) => {
      if (errno(err) !== 'ENOENT') throw err;
    });
    return;
  }
  const child = await openDirAt(dir, name).catch((err: unknown) => {
    if (errno(err) === 'ENOENT') return null;
    throw err;
  });
  if (!child) return;
  try {
    for (const entry of await fsp.readdir(at(child))) await removeAt(child, entry);
  } finally {
    await child.close();
  }
  await fsp.rmdir(at(dir, name)).catch((err: unknown) => {
    if (errno(err) !== 'ENOENT') throw err;
  });
}

/** rm -rf that never leaves the tree it was given: folders are entered by descriptor, links removed as links. */
export async function removeTree(abs: string): Promise<void> {
  try {
    await inParent(abs, removeAt);
  } catch (err) {
    if (errno(err) === 'ENOENT' || (err instanceof ProblemError && err.code === 'fs.entry.not_found')) return;
    throw err;
  }
}
