import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { maxUploadBytes } from '../../../../shared/src/api/files.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { uploadTempPrefix } from './safe-path.ts';

export interface UploadTarget {
  /** Real path of the target folder (checked inside the share). */
  folder: string;
  name: string;
  overwrite: boolean;
  body: Readable;
  /** Content-Length of the request, when it had one. */
  declaredLength: number | null;
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/** Counts the bytes and stops a body that grows past the limit (chunked bodies have no length up front). */
function byteCounter(limit: number): Transform & { bytes: number } {
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      counter.bytes += chunk.length;
      if (counter.bytes > limit) done(new ProblemError('request.body.too_large', { limit }));
      else done(null, chunk);
    },
  }) as Transform & { bytes: number };
  counter.bytes = 0;
  return counter;
}

/**
 * Streams a body into a hidden temporary file beside the target (same file system, so the
 * final step is a rename) and gives it its name only once the body is complete. Any failure
 * or an aborted request removes the temporary file: nothing partial ever appears.
 * Without overwrite the name is taken with link(), which fails atomically when it exists.
 */
export async function receiveUpload(t: UploadTarget): Promise<void> {
  if (t.declaredLength !== null && t.declaredLength > maxUploadBytes) throw new ProblemError('request.body.too_large', { limit: maxUploadBytes });
  const temp = path.join(t.folder, `${uploadTempPrefix}${randomBytes(12).toString('hex')}`);
  const counter = byteCounter(maxUploadBytes);
  // O_EXCL and O_NOFOLLOW: the temporary name is ours alone and never a planted link.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await open(temp, flags, 0o666);
  try {
    await pipeline(t.body, counter, handle.createWriteStream());
    if (t.declaredLength !== null && counter.bytes !== t.declaredLength) throw new ProblemError('fs.upload.incomplete');
    const target = path.join(t.folder, t.name);
    if (t.overwrite) {
      await rename(temp, target).catch((err: unknown) => {
        throw errno(err) === 'EISDIR' || errno(err) === 'ENOTEMPTY' ? new ProblemError('fs.entry.is_folder') : err;
      });
      return;
    }
    await link(temp, target).catch((err: unknown) => {
      throw errno(err) === 'EEXIST' ? new ProblemError('fs.entry.exists', { name: t.name }) : err;
    });
    await unlink(temp);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    if (err instanceof ProblemError) throw err;
    // The client went away or the body broke off: nothing is kept.
    if (t.body.destroyed || errno(err) === 'ECONNRESET' || errno(err) === 'ERR_STREAM_PREMATURE_CLOSE') throw new ProblemError('fs.upload.incomplete');
    throw err;
  }
}
