import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { uploadSink } from './upload-sink.ts';

const mib = 1024 * 1024;

/** 150 MiB in 64 KiB chunks, as a socket delivers a body; each chunk differs, so a misplaced one shows. */
function body(): { stream: Readable; digest: string } {
  const chunks: Buffer[] = [];
  for (let i = 0; i < (150 * mib) / (64 * 1024); i++) chunks.push(Buffer.alloc(64 * 1024, i % 251));
  const hash = createHash('sha256');
  for (const c of chunks) hash.update(c);
  return { stream: Readable.from(chunks), digest: hash.digest('hex') };
}

describe('uploadSink', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(path.join(tmpdir(), 'cellar-sink-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('writes every byte in order and has the disk catch up every 64 MiB while the body comes', async () => {
    const file = path.join(folder, 'up.bin');
    const handle = await open(file, 'wx');
    const proto = Object.getPrototypeOf(handle) as { datasync: (this: FileHandle) => Promise<void> };
    const original = proto.datasync;
    const flushedAt: number[] = [];
    const sink = uploadSink(handle);
    proto.datasync = function (this: FileHandle) {
      flushedAt.push(sink.bytesWritten);
      return original.call(this);
    };
    try {
      const { stream, digest } = body();
      await pipeline(stream, sink);
      expect(sink.bytesWritten).to.equal(150 * mib);
      expect(createHash('sha256').update(readFileSync(file)).digest('hex')).to.equal(digest);
      // Flushes started while the body still came, 64 MiB or more apart (one at a time: a slow disk
      // makes fewer); the last part is the caller's fsync.
      expect(flushedAt.length).to.be.within(1, 2);
      expect(flushedAt[0])
        .to.be.at.least(64 * mib)
        .and.below(150 * mib);
      if (flushedAt[1] !== undefined) expect(flushedAt[1] - (flushedAt[0] ?? 0)).to.be.at.least(64 * mib);
    } finally {
      proto.datasync = original;
      await handle.close();
    }
  });

  it('fails the stream with the write error and leaves the handle open for the caller', async () => {
    const handle = await open(path.join(folder, 'ro.bin'), 'wx').then(async (h) => (await h.close(), open(path.join(folder, 'ro.bin'), 'r')));
    const sink = uploadSink(handle);
    let failed: unknown;
    await pipeline(Readable.from([Buffer.alloc(10)]), sink).catch((err: unknown) => (failed = err));
    expect((failed as NodeJS.ErrnoException).code).to.equal('EBADF');
    expect((await handle.stat()).size).to.equal(0);
    await handle.close();
  });
});
