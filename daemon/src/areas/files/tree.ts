import type { Stats } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { SkipReason } from '../../../../shared/src/api/files/operations.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { ShareFs } from '../../host/share-fs/share-fs.ts';
import { assertFollowable, isInside, isReservedName, resolveInShare, temporaryName } from './safe-path.ts';

export function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

export async function lstatOrNull(fs: ShareFs, file: string): Promise<Stats | null> {
  try {
    return await fs.lstat(file);
  } catch (err) {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return null;
    throw err;
  }
}

/** What every tree walk of a running operation shares: cancel, byte progress and the report of what was left out. */
export interface TreeContext {
  /** The identity the operation's file calls run in: the user who started it. */
  fs: ShareFs;
  signal: AbortSignal;
  addBytes(bytes: number): void;
  /** An entry left out (absolute path of the entry that was not copied or whose name was taken). */
  report(abs: string, reason: SkipReason): void;
  /** The share-relative path of an absolute path, for problem params. */
  relOf(abs: string): string;
}

/** A hidden name in `folder` for an entry being written: reserved, so never listed, addressed or copied. */
export function tempPath(folder: string): string {
  return path.join(folder, temporaryName());
}

/** The children of a folder that belong to users: the box's own reserved entries are never copied or moved. */
export async function userChildren(fs: ShareFs, folder: string): Promise<string[]> {
  return (await fs.readdir(folder)).filter((name) => !isReservedName(name));
}

/** Bytes of every file in a tree, links not followed (the total a copy reports progress against). */
export async function treeBytes(fs: ShareFs, abs: string, signal?: AbortSignal): Promise<number> {
  signal?.throwIfAborted();
  const s = await lstatOrNull(fs, abs);
  if (!s) return 0;
  if (s.isFile()) return s.size;
  if (!s.isDirectory()) return 0;
  let sum = 0;
  for (const name of await userChildren(fs, abs)) sum += await treeBytes(fs, path.join(abs, name), signal);
  return sum;
}

/** "name (2).ext" for a file, "name (2)" for a folder: the first free one in `folder`. */
export async function freeName(fs: ShareFs, folder: string, name: string, isFolder: boolean): Promise<string> {
  const ext = isFolder ? '' : path.extname(name);
  const stem = ext === '' ? name : name.slice(0, -ext.length);
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!(await lstatOrNull(fs, path.join(folder, candidate)))) return candidate;
  }
}

/**
 * Whether a symbolic link with `text`, placed in `folder`, leads inside `root`. The kernel resolves
 * the path (links and '..' as it would follow them); for a target that does not exist yet, the
 * nearest existing ancestor is resolved and the rest appended, refusing any '..' in that rest.
 */
export async function linkLeadsInside(folder: string, text: string, root: string): Promise<boolean> {
  let probe = path.isAbsolute(text) ? text : `${folder}/${text}`;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await realpath(probe);
      if (rest.some((segment) => segment === '..')) return false;
      return isInside(path.join(real, ...rest), root);
    } catch (err) {
      if (errno(err) !== 'ENOENT' && errno(err) !== 'ENOTDIR') return false;
      const parent = path.dirname(probe);
      if (parent === probe) return false;
      rest.unshift(path.basename(probe));
      probe = parent;
    }
  }
}

/**
 * Makes every missing folder of `segments` below the share root and answers the real last one.
 * Existing parts must be folders (or links to folders) inside the share; a link out is refused.
 */
export async function ensureFolders(fs: ShareFs, root: string, segments: string[]): Promise<string> {
  for (let i = 1; i <= segments.length; i++) {
    const r = await resolveInShare(root, segments.slice(0, i).join('/'));
    if (!r.stat) {
      await fs.mkdir(r.full, 0o777).catch((err: unknown) => {
        if (errno(err) !== 'EEXIST') throw err;
      });
      continue;
    }
    assertFollowable(r);
    if (!(await fs.lstat(r.target)).isDirectory()) throw new ProblemError('fs.entry.not_folder', { path: r.rel });
  }
  return (await resolveInShare(root, segments.join('/'))).target;
}
