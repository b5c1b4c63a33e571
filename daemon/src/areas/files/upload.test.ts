import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { receiveUpload } from './upload.ts';
import { daemonFs } from '../../host/share-fs/daemon-fs.ts';

interface SyncSeen {
  folder: boolean;
  size: number;
  targetExists: boolean;
}

/**
 * Watches every fsync made through a FileHandle while `work` runs. The real sync still runs;
 * the wrapper only notes, at the moment of each call, what was synced and whether the
 * upload's final name existed yet: the order is what makes an upload survive a power cut.
 */
async function watchSyncs(target: string, work: () => Promise<void>): Promise<SyncSeen[]> {
  const probe = await open(tmpdir(), 'r');
  const proto = Object.getPrototypeOf(probe) as { sync: (this: FileHandle) => Promise<void> };
  await probe.close();
  const original = proto.sync;
  const seen: SyncSeen[] = [];
  proto.sync = async function (this: FileHandle) {
    const s = await this.stat();
    seen.push({ folder: s.isDirectory(), size: s.size, targetExists: existsSync(target) });
    return original.call(this);
  };
  try {
    await work();
  } finally {
    proto.sync = original;
  }
  return seen;
}

describe('receiveUpload durability', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'cellar-upload-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const body = Buffer.alloc(3 * 1024 * 1024 + 17, 7);

  for (const overwrite of [false, true]) {
    it(`syncs the whole file before it gets its name, then the folder (overwrite ${overwrite})`, async () => {
      const target = path.join(folder, 'big.bin');
      const seen = await watchSyncs(target, () =>
        receiveUpload(daemonFs, {
          folder,
          name: 'big.bin',
          overwrite,
          body: Readable.from([body.subarray(0, 1000), body.subarray(1000)]),
          declaredLength: body.length,
        }),
      );
      expect(seen[0]).to.deep.equal({ folder: false, size: body.length, targetExists: false });
      expect(seen.some((s) => s.folder && s.targetExists)).to.equal(true);
      expect(readFileSync(target).equals(body)).to.equal(true);
      // Only the named file is left: the temporary one is gone and its handle closed.
      expect(readdirSync(folder)).to.deep.equal(['big.bin']);
    });
  }

  it('syncs nothing under the final name when the body is short', async () => {
    const target = path.join(folder, 'short.bin');
    let refused: unknown;
    const seen = await watchSyncs(target, () =>
      receiveUpload(daemonFs, { folder, name: 'short.bin', overwrite: false, body: Readable.from([body.subarray(0, 10)]), declaredLength: 20 }).catch(
        (err: unknown) => {
          refused = err;
        },
      ),
    );
    expect((refused as { code?: string }).code).to.equal('fs.upload.incomplete');
    expect(seen).to.deep.equal([]);
    expect(readdirSync(folder)).to.deep.equal([]);
  });
});
