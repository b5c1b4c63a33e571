import { Transform, type TransformCallback } from 'node:stream';

/**
 * Passes a stream through unchanged, counting its bytes and, with a limit, holding each chunk
 * back until the bytes so far fit the rate. Holding a chunk stops reading upstream (backpressure
 * reaches zfs send through the pipe), so no more than one chunk is ever buffered here.
 */
export class ThrottleCounter extends Transform {
  bytes = 0;
  private since = performance.now();
  private credited = 0;

  constructor(
    private readonly bytesPerSecond: number | null,
    private readonly onBytes?: (bytes: number) => void,
  ) {
    // A larger buffer than the default 16 KiB: fewer hops per chunk of a 64 KiB pipe read.
    super({ highWaterMark: 1 << 20 });
    if (bytesPerSecond !== null && !(bytesPerSecond > 0)) throw new Error('a bandwidth limit is a positive number of bytes per second');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    this.onBytes?.(this.bytes);
    if (this.bytesPerSecond === null) return done(null, chunk);
    const now = performance.now();
    // After a stall (a slow link) the rate starts over: unused time is not saved up into a burst.
    const due = this.since + ((this.bytes - this.credited) / this.bytesPerSecond) * 1000;
    if (now - due > 1000) {
      this.since = now;
      this.credited = this.bytes;
      return done(null, chunk);
    }
    if (due <= now) return done(null, chunk);
    setTimeout(() => done(null, chunk), due - now);
  }
}
