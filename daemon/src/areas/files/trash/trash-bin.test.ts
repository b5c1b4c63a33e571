import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ProblemError } from '../../../core/problem-error.ts';
import { assertSameDevice, binRoot, ensureBin } from './trash-bin.ts';

async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  const err: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof ProblemError)) throw new Error(`expected a ProblemError, got ${String(err)}`);
  return err;
}

describe('trash bin place', () => {
  it('binRoot puts the bin beside the share root, outside its tree', () => {
    expect(binRoot('/srv/media')).to.equal('/srv/.cellar-trash/media');
    expect(binRoot('/mnt/tank/shares/photos/files')).to.equal('/mnt/tank/shares/photos/.cellar-trash/files');
    expect(binRoot('/srv/media/')).to.equal('/srv/.cellar-trash/media');
    expect(binRoot('/srv/media').startsWith('/srv/media/')).to.equal(false);
  });

  describe('on the file system', () => {
    let work: string;
    let mounted: string | null = null;
    before(() => {
      work = mkdtempSync(path.join(tmpdir(), 'cellar-bin-unit-'));
    });
    after(() => {
      if (mounted) execFileSync('umount', [mounted]);
      rmSync(work, { recursive: true, force: true });
    });

    it('accepts a bin on the share file system and refuses one on another with fs.trash.unavailable', async () => {
      const share = path.join(work, 'same');
      mkdirSync(share);
      const bin = await ensureBin(share);
      expect(bin).to.equal(path.join(work, '.cellar-trash', 'same'));
      await assertSameDevice(share, bin);

      const other = path.join(work, 'other');
      mkdirSync(other);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'cellar-unit', other]);
      mounted = other;
      const err = await problemOf(ensureBin(other));
      expect(err.code).to.equal('fs.trash.unavailable');
      expect(err.params).to.deep.equal({ reason: 'otherDevice' });
    });
  });
});
