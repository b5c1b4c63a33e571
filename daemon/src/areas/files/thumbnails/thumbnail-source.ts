import { createHash } from 'node:crypto';
import { constants, type BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { ProblemError } from '../../../core/problem-error.ts';
import { open } from '../../../host/nofollow-fs.ts';
import { assertExists, assertFollowable, resolveInShare } from '../safe-path.ts';
import { sniffBytes, sniffImage, type ImageFormat } from './image-sniff.ts';

/**
 * The cache key and `v` of a file: a short hash of its identity (device, inode) and its
 * version (size, modification time in ns). Any write, replacement or restore changes it.
 */
export function thumbnailKey(s: Pick<BigIntStats, 'dev' | 'ino' | 'size' | 'mtimeNs'>): string {
  return createHash('sha256').update(`${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`).digest('hex').slice(0, 20);
}

/** A regular file of a share, opened without following a link, with what thumbnails need of it. */
export interface OpenSource {
  handle: FileHandle;
  key: string;
  /** Null when the content is no image the box renders. */
  format: ImageFormat | null;
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/**
 * Opens a share-relative path the way downloads do: resolved by the files area's safe-path
 * rules (links out of the share refused), opened with O_NOFOLLOW, then identified from the
 * open handle so the key and the sniffed bytes belong to the very file that gets rendered.
 * Throws fs.entry.not_found, fs.path.outside_share or fs.entry.not_file.
 */
export async function openSource(root: string, rel: string): Promise<OpenSource> {
  const r = await resolveInShare(root, rel);
  assertExists(r);
  assertFollowable(r);
  let handle: FileHandle;
  try {
    handle = await open(r.target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    if (errno(err) === 'ELOOP') throw new ProblemError('fs.path.outside_share');
    if (errno(err) === 'ENOENT') throw new ProblemError('fs.entry.not_found');
    if (errno(err) === 'EISDIR') throw new ProblemError('fs.entry.not_file');
    throw err;
  }
  try {
    const s = await handle.stat({ bigint: true });
    if (!s.isFile()) throw new ProblemError('fs.entry.not_file');
    const head = Buffer.alloc(sniffBytes);
    const { bytesRead } = await handle.read(head, 0, sniffBytes, 0);
    return { handle, key: thumbnailKey(s), format: sniffImage(head.subarray(0, bytesRead)) };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** What a source is for the states answer; only invalid paths still throw. */
export type SourceInfo = { kind: 'missing' } | { kind: 'notFile' } | { kind: 'file'; key: string; format: ImageFormat | null };

export async function inspectSource(root: string, rel: string): Promise<SourceInfo> {
  let source: OpenSource;
  try {
    source = await openSource(root, rel);
  } catch (err) {
    if (!(err instanceof ProblemError)) throw err;
    if (err.code === 'fs.entry.not_found') return { kind: 'missing' };
    if (err.code === 'fs.entry.not_file' || err.code === 'fs.path.outside_share') return { kind: 'notFile' };
    throw err;
  }
  await source.handle.close();
  return { kind: 'file', key: source.key, format: source.format };
}
