import type { FileHandle } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';

/** Bytes per read and per socket write; two such buffers per download in flight. */
const chunkBytes = 1024 * 1024;

function premature(): Error {
  return Object.assign(new Error('the client went away'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/**
 * Sends bytes `start`..`end` (inclusive) of an open file and ends the answer. Two buffers take
 * turns: one is read into while the other is on its way to the socket. A read stream allocates a
 * new buffer per read instead, and on a 1 GiB download those buffers made V8 run a full garbage
 * collection every few dozen MiB (external memory pressure): most of the daemon's CPU per GiB.
 */
export async function sendRange(handle: FileHandle, res: ServerResponse, start: number, end: number): Promise<void> {
  // A response whose socket is gone never calls back a write: its 'close' settles every wait instead.
  let onClose = (): void => undefined;
  const gone = new Promise<never>((_, reject) => {
    onClose = () => reject(premature());
    res.once('close', onClose);
  });
  gone.catch(() => undefined);
  const written = (chunk: Buffer) => Promise.race([new Promise<void>((resolve, reject) => res.write(chunk, (err) => (err ? reject(err) : resolve()))), gone]);
  const buffers = [Buffer.allocUnsafeSlow(chunkBytes), Buffer.allocUnsafeSlow(chunkBytes)];
  const inFlight: (Promise<void> | undefined)[] = [undefined, undefined];
  try {
    let position = start;
    for (let turn = 0; position <= end; turn ^= 1) {
      const buffer = buffers[turn] as Buffer;
      // This buffer is reused only once the socket took all of its last chunk.
      await inFlight[turn];
      const { bytesRead } = await Promise.race([handle.read(buffer, 0, Math.min(chunkBytes, end - position + 1), position), gone]);
      // The file shrank after its size was announced: the answer cannot be completed honestly.
      if (bytesRead === 0) throw new Error('the file became shorter during the download');
      position += bytesRead;
      inFlight[turn] = written(buffer.subarray(0, bytesRead));
    }
    await Promise.all(inFlight);
    await Promise.race([new Promise<void>((resolve) => res.end(resolve)), gone]);
  } catch (err) {
    // Headers and part of the body are out: only a cut connection tells the client it is incomplete.
    res.destroy();
    throw err;
  } finally {
    res.off('close', onClose);
  }
}
