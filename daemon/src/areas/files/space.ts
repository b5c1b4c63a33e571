import { statfs } from 'node:fs/promises';
import { constants } from 'node:os';
import { ProblemError } from '../../core/problem-error.ts';

const outOfSpace = new Set([constants.errno.ENOSPC, constants.errno.EDQUOT]);

/**
 * ENOSPC (the file system is full) and EDQUOT (a quota is reached) are the same state for a
 * person: no room on this share. By number: libuv names no EDQUOT ("Unknown system error -122").
 */
export function isOutOfSpace(err: unknown): boolean {
  const errno = (err as NodeJS.ErrnoException | null)?.errno;
  return typeof errno === 'number' && outOfSpace.has(-errno);
}

/** Bytes an unprivileged writer may still use in the file system of `folder` (on ZFS a dataset's quota included). */
export async function freeBytes(folder: string): Promise<number> {
  const s = await statfs(folder);
  return s.bavail * s.bsize;
}

/** The problem for a share without room: its name, what was needed when known, and what is free now. */
export async function spaceProblem(folder: string, share: string, needed: number | null): Promise<ProblemError> {
  const free = await freeBytes(folder).catch(() => 0);
  return new ProblemError('fs.space.insufficient', { share, needed, free });
}

/** Rethrows an out-of-space failure as fs.space.insufficient, anything else as it is. */
export async function asSpaceProblem(err: unknown, folder: string, share: string, needed: number | null): Promise<never> {
  throw isOutOfSpace(err) ? await spaceProblem(folder, share, needed) : err;
}
