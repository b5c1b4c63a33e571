import { expect } from 'chai';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ThrottleCounter } from './throttle.ts';

async function pass(bytesPerSecond: number | null, total: number): Promise<{ ms: number; seen: number; counted: number; reports: number[] }> {
  const chunk = Buffer.alloc(64 * 1024, 7);
  const reports: number[] = [];
  const throttle = new ThrottleCounter(bytesPerSecond, (n) => reports.push(n));
  let seen = 0;
  const started = performance.now();
  await pipeline(
    Readable.from(
      (function* () {
        for (let sent = 0; sent < total; sent += chunk.length) yield chunk;
      })(),
    ),
    throttle,
    new Writable({
      write(c: Buffer, _e, cb) {
        seen += c.length;
        cb();
      },
    }),
  );
  return { ms: performance.now() - started, seen, counted: throttle.bytes, reports };
}

describe('replication throttle and counter', () => {
  it('passes every byte and counts them, reporting a growing total', async () => {
    const r = await pass(null, 4 * 1024 * 1024);
    expect(r.seen).to.equal(4 * 1024 * 1024);
    expect(r.counted).to.equal(r.seen);
    expect(r.reports.at(-1)).to.equal(r.seen);
    expect(r.reports).to.deep.equal([...r.reports].sort((a, b) => a - b));
  });

  it('holds the stream to the limit: 2 MiB at 1 MiB/s takes about two seconds', async () => {
    const r = await pass(1024 * 1024, 2 * 1024 * 1024);
    expect(r.seen).to.equal(2 * 1024 * 1024);
    expect(r.ms).to.be.within(1800, 3000);
  });

  it('refuses a limit that is not a positive rate', () => {
    expect(() => new ThrottleCounter(0)).to.throw(/positive/);
    expect(() => new ThrottleCounter(-5)).to.throw(/positive/);
  });
});
