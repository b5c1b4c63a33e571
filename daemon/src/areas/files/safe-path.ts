import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { LinkTarget } from '../../../../shared/src/api/files/files.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { lstat } from '../../host/nofollow-fs.ts';
import { trashFolderName } from '../shares/share-layout.ts';

/** Uploads in progress live under this prefix until their body is complete. */
export const uploadTempPrefix = '.cellar-upload-';

/**
 * This process's mark in the names of its temporaries. Uploads and copies write under
 * `.cellar-upload-<mark>-<random>` and rename into place; a daemon killed mid-way (kill -9, a
 * power cut) leaves its temporaries behind, hidden from listings and SMB yet filling the share.
 * The mark tells them from the ones this daemon is writing now, without a registry.
 */
const processMark = randomBytes(4).toString('hex');

export function temporaryName(): string {
  return `${uploadTempPrefix}${processMark}-${randomBytes(12).toString('hex')}`;
}

/** A temporary this daemon made (live, or left by a bug); anything else under the prefix is a dead daemon's. */
export function isOwnTemporary(name: string): boolean {
  return name.startsWith(`${uploadTempPrefix}${processMark}-`);
}

/** Names the box keeps for itself in every folder of a share. */
export function isReservedName(name: string): boolean {
  return name === trashFolderName || name.startsWith(uploadTempPrefix);
}

const maxNameBytes = 255;

/** Checks one path segment (a file or folder name) as the user gave it. */
export function checkName(name: string): void {
  if (name === '') throw new ProblemError('fs.path.invalid', { reason: 'emptySegment' });
  if (name === '.' || name === '..') throw new ProblemError('fs.path.invalid', { reason: 'dotSegment' });
  if (name.includes('\0')) throw new ProblemError('fs.path.invalid', { reason: 'nul' });
  if (name.includes('\\')) throw new ProblemError('fs.path.invalid', { reason: 'backslash' });
  if (name.includes('/')) throw new ProblemError('fs.path.invalid', { reason: 'separator' });
  if (Buffer.byteLength(name) > maxNameBytes) throw new ProblemError('fs.path.invalid', { reason: 'tooLong' });
  if (isReservedName(name)) throw new ProblemError('fs.path.reserved');
}

/**
 * Splits a share-relative path into checked segments. '' is the share itself; everything
 * that could climb or confuse (absolute, '.', '..', empty segments, NUL, backslash) is refused
 * before the file system sees it.
 */
export function parseRelPath(rel: string): string[] {
  if (rel === '') return [];
  if (rel.startsWith('/')) throw new ProblemError('fs.path.invalid', { reason: 'absolute' });
  const segments = rel.split('/');
  for (const segment of segments) checkName(segment);
  return segments;
}

export function isInside(real: string, root: string): boolean {
  return real === root || real.startsWith(root === path.sep ? root : root + path.sep);
}

/** A path of a share, resolved without trusting any symbolic link in it. */
export interface ResolvedPath {
  /** Real path of the share's folder. */
  root: string;
  /** The checked relative path, '/'-joined. */
  rel: string;
  /** Last segment ('' for the share itself). */
  name: string;
  /** Real path of the containing folder: inside the share. */
  parent: string;
  /** parent + name: the entry itself, never resolved (a link stays a link). */
  full: string;
  /** lstat of the entry; null when absent. */
  stat: BigIntStats | null;
  /** Set when the entry is a symbolic link. */
  link: LinkTarget | null;
  /** What operations on the content use: the entry, or an inside link's real target. */
  target: string;
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

async function lstatOrNull(file: string): Promise<BigIntStats | null> {
  try {
    return await lstat(file, { bigint: true });
  } catch (err) {
    if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return null;
    throw err;
  }
}

/**
 * Resolves a share-relative path: the folder part with realpath (it must stay inside the share,
 * so a linked folder leading out is refused), the last segment with lstat (never followed
 * blindly). A final link is followed only when its real target lies inside the share.
 * Node has no openat(), so a folder swapped for a link between this check and the operation
 * could still race; operations open files with O_NOFOLLOW to close the window on the last segment.
 */
export async function resolveInShare(shareRoot: string, rel: string): Promise<ResolvedPath> {
  const segments = parseRelPath(rel);
  const root = await realpath(shareRoot).catch(() => {
    throw new ProblemError('fs.entry.not_found', undefined, { detail: 'The folder of the share is missing on the host' });
  });
  if (segments.length === 0) {
    return { root, rel: '', name: '', parent: root, full: root, stat: await lstatOrNull(root), link: null, target: root };
  }
  const name = segments[segments.length - 1] as string;
  let parent: string;
  try {
    parent = await realpath(path.join(root, ...segments.slice(0, -1)));
  } catch (err) {
    if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR' || code(err) === 'ELOOP') throw new ProblemError('fs.entry.not_found');
    throw err;
  }
  if (!isInside(parent, root)) throw new ProblemError('fs.path.outside_share');
  const full = path.join(parent, name);
  const stat = await lstatOrNull(full);
  let link: LinkTarget | null = null;
  let target = full;
  if (stat?.isSymbolicLink()) {
    const real = await realpath(full).catch(() => null);
    link = real === null ? 'broken' : isInside(real, root) ? 'inside' : 'outside';
    if (real !== null && link === 'inside') target = real;
  }
  return { root, rel: segments.join('/'), name, parent, full, stat, link, target };
}

/** Refuses links that lead out of the share or nowhere: their targets are never opened. */
export function assertFollowable(r: ResolvedPath): void {
  if (r.link === 'outside') throw new ProblemError('fs.path.outside_share');
  if (r.link === 'broken') throw new ProblemError('fs.entry.not_found');
}

/** The entry must exist; links out of the share count as existing (they are listed) but are never followed. */
export function assertExists(r: ResolvedPath): BigIntStats {
  if (!r.stat) throw new ProblemError('fs.entry.not_found');
  return r.stat;
}
