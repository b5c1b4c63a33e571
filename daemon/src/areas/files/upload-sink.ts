import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/** Lets up to 1 MiB of the body queue while a write runs, so queued chunks go down in one writev. */
const queueBytes = 1024 * 1024;
/** Written bytes after which the disk is asked to catch up, while the body keeps coming. */
const flushEveryBytes = 64 * 1024 * 1024;

export interface UploadSink extends Writable {
  readonly bytesWritten: number;
}

/**
 * Writes an upload's body into its open temporary file and has the disk write it while the body
 * still arrives: every 64 MiB an fdatasync starts in the background (one at a time), so the
 * caller's final fsync finds little left to do. Without it the kernel starts writing back only
 * past its dirty threshold (gigabytes on a box with memory), and the whole body went to disk in
 * that final fsync, after the last byte came in instead of beside the receiving.
 * The handle stays open: the caller syncs and closes it.
 */
export function uploadSink(handle: FileHandle): UploadSink {
  let written = 0;
  let flushedAt = 0;
  let flushing: Promise<void> | null = null;
  let flushError: unknown = null;

  function maybeFlush(): void {
    if (flushing || written - flushedAt < flushEveryBytes) return;
    flushedAt = written;
    flushing = handle
      .datasync()
      .catch((err: unknown) => void (flushError ??= err))
      .finally(() => (flushing = null));
  }

  async function writeAll(chunks: Buffer[]): Promise<void> {
    if (flushError) throw flushError;
    let left = chunks.filter((c) => c.length > 0);
    // A regular file takes a short write only when it runs out of room: the rest then fails with its own error.
    while (left.length > 0) {
      const { bytesWritten } = await handle.writev(left, written);
      if (bytesWritten === 0) throw Object.assign(new Error('the file took no more bytes'), { code: 'ENOSPC' });
      written += bytesWritten;
      left = rest(left, bytesWritten);
    }
    maybeFlush();
  }

  const sink = new Writable({
    highWaterMark: queueBytes,
    writev(chunks, done) {
      writeAll(chunks.map((c) => c.chunk as Buffer)).then(() => done(), done);
    },
    final(done) {
      Promise.resolve(flushing)
        .then(() => (flushError ? done(flushError as Error) : done()))
        .catch(done);
    },
  });
  return Object.defineProperty(sink, 'bytesWritten', { get: () => written }) as UploadSink;
}

/** What remains of `chunks` after the first `n` bytes went out. */
function rest(chunks: Buffer[], n: number): Buffer[] {
  let skip = n;
  let i = 0;
  while (i < chunks.length && skip >= (chunks[i] as Buffer).length) skip -= (chunks[i++] as Buffer).length;
  if (i === chunks.length) return [];
  return [(chunks[i] as Buffer).subarray(skip), ...chunks.slice(i + 1)];
}
