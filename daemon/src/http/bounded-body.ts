import { PassThrough, type Readable } from 'node:stream';
import { ProblemError } from '../core/problem-error.ts';

/**
 * A raw request body as a stream that fails with `request.body.too_large` once more than `limit`
 * bytes arrived (a chunked body declares no length up front).
 *
 * Unlike piping the request itself, a failure here never destroys the request: its socket stays
 * open, so the problem handler can still answer 413 (or 507 for a full disk) while it drains the
 * rest. A request that breaks off still fails the stream, with the request's own error.
 */
export function boundedBody(body: Readable, limit: number): Readable {
  const out = new PassThrough({ highWaterMark: body.readableHighWaterMark });
  let bytes = 0;
  const onData = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > limit) return fail(new ProblemError('request.body.too_large', { limit }));
    if (!out.write(chunk)) body.pause();
  };
  const onEnd = () => {
    detach();
    out.end();
  };
  const onError = (err: Error) => fail(err);
  const onClose = () => {
    if (!body.readableEnded) fail(Object.assign(new Error('the request was aborted'), { code: 'ECONNRESET' }));
  };
  const onDrain = () => body.resume();
  function detach() {
    body.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    out.off('drain', onDrain).off('close', detach);
  }
  function fail(err: Error) {
    detach();
    // Left paused: what is still coming is the problem handler's to read and drop.
    body.pause();
    out.destroy(err);
  }
  body.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  // A consumer that gives up (a full disk, a refused archive) stops the reading the same way.
  out.on('drain', onDrain).on('close', () => {
    if (!body.readableEnded) body.pause();
    detach();
  });
  return out;
}
