import { constants } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { maxUploadBytes } from '../../../../shared/src/api/files/files.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { boundedBody } from '../../http/bounded-body.ts';
import { at, type Folder, type ShareFs } from '../../host/share-fs/share-fs.ts';
import { temporaryName } from './safe-path.ts';
import { uploadSink } from './upload-sink.ts';
import { isOutOfSpace } from './space.ts';

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

/**
 * Streams a body into a hidden temporary file beside the target (same file system, so the
 * final step is a rename) and gives it its name only once the body is complete. Any failure
 * or an aborted request removes the temporary file: nothing partial ever appears.
 * Without overwrite the name is taken with link(), which fails atomically when it exists.
 */
export async function receiveUpload(fs: ShareFs, t: UploadTarget): Promise<void> {
  if (t.declaredLength !== null && t.declaredLength > maxUploadBytes) throw new ProblemError('request.body.too_large', { limit: maxUploadBytes });
  // The folder is held by its descriptor for the whole upload: every step below happens in that very folder,
  // even when a share user swaps its name for a link meanwhile.
  await fs.inParent(path.join(t.folder, t.name), (dir, name) => receiveInto(fs, dir, name, t));
}

async function receiveInto(fs: ShareFs, dir: Folder, name: string, t: UploadTarget): Promise<void> {
  const temp = at(dir, temporaryName());
  // O_EXCL and O_NOFOLLOW: the temporary name is ours alone and never a planted link.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await fs.open(temp, flags, 0o666);
  // The sink leaves the handle open after the last write, for the fsync below.
  const sink = uploadSink(handle);
  try {
    // The request itself stays open on a failure, so a full disk is still answered with its 507.
    await pipeline(boundedBody(t.body, maxUploadBytes), sink);
    if (t.declaredLength !== null && sink.bytesWritten !== t.declaredLength) throw new ProblemError('fs.upload.incomplete');
    // The bytes reach the disk before the file gets its name: a power cut after the answer
    // must not leave an empty or torn file under a name the client was told is complete.
    await handle.sync();
    const target = at(dir, name);
    if (t.overwrite) {
      await fs.rename(temp, target).catch((err: unknown) => {
        throw errno(err) === 'EISDIR' || errno(err) === 'ENOTEMPTY' ? new ProblemError('fs.entry.is_folder') : err;
      });
    } else {
      await fs.link(temp, target).catch((err: unknown) => {
        throw errno(err) === 'EEXIST' ? new ProblemError('fs.entry.exists', { name: t.name }) : err;
      });
      await fs.unlink(temp);
    }
    // The new name itself is durable only once its folder's entry is on disk too.
    await fs.syncFolder(at(dir));
  } catch (err) {
    await fs.unlink(temp).catch(() => undefined);
    // The disk or a quota ran full: the caller names the share and the space (space.ts); the client is not to blame.
    if (err instanceof ProblemError || isOutOfSpace(err)) throw err;
    // The client went away or the body broke off: nothing is kept.
    if (t.body.destroyed || errno(err) === 'ECONNRESET' || errno(err) === 'ERR_STREAM_PREMATURE_CLOSE') throw new ProblemError('fs.upload.incomplete');
    throw err;
  } finally {
    // After a failure no further write starts; close() waits for one (or a background flush) still running.
    sink.destroy();
    await handle.close().catch(() => undefined);
  }
}
