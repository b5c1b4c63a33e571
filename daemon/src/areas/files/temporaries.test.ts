import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createLogger } from '../../core/logger.ts';
import { temporaryName, uploadTempPrefix } from './safe-path.ts';
import { sweepTemporaries } from './temporaries.ts';

describe('leftover temporaries sweep', () => {
  let root: string;
  let outside: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'cellar-sweep-'));
    outside = mkdtempSync(path.join(tmpdir(), 'cellar-sweep-outside-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  const logger = createLogger({ level: 'error', console: false, sinks: [] });
  const now = Date.now();

  it("removes a dead daemon's temporaries at any depth, keeps this daemon's live ones and everything else, never follows a link", async () => {
    mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    const dead = [`${uploadTempPrefix}0123abcd-${'f'.repeat(24)}`, `${uploadTempPrefix}${'e'.repeat(24)}`];
    writeFileSync(path.join(root, dead[0] as string), 'x'.repeat(1000));
    mkdirSync(path.join(root, 'a', 'b', dead[1] as string));
    writeFileSync(path.join(root, 'a', 'b', dead[1] as string, 'inner'), 'y'.repeat(24));
    const live = temporaryName();
    writeFileSync(path.join(root, 'a', live), 'being written');
    writeFileSync(path.join(root, 'a', 'photo.jpg'), 'keep');
    // A link out of the share with a temporary-looking name behind it: never entered.
    writeFileSync(path.join(outside, `${uploadTempPrefix}bait`), 'outside');
    symlinkSync(outside, path.join(root, 'out'));

    const found = await sweepTemporaries({ logger, now: () => now, roots: async () => [root] }, new AbortController().signal);
    expect(found).to.deep.equal({ count: 2, bytes: 1024 });
    expect(readdirSync(root).sort()).to.deep.equal(['a', 'out']);
    expect(readdirSync(path.join(root, 'a')).sort()).to.deep.equal(['b', live, 'photo.jpg'].sort());
    expect(readdirSync(path.join(root, 'a', 'b'))).to.deep.equal([]);
    expect(readdirSync(outside)).to.deep.equal([`${uploadTempPrefix}bait`]);
  });

  it("removes this daemon's own temporary once nobody wrote it for a day", async () => {
    const own = path.join(root, temporaryName());
    writeFileSync(own, 'stale');
    const dayAgo = new Date(now - 25 * 3600_000);
    utimesSync(own, dayAgo, dayAgo);
    expect((await sweepTemporaries({ logger, now: () => now, roots: async () => [root] }, new AbortController().signal)).count).to.equal(1);
    expect(readdirSync(root)).to.deep.equal([]);
  });
});
