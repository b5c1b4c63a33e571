import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../daemon/src/core/logger.ts';
import { CommandRunner } from '../../daemon/src/host/command-runner.ts';
import { shareAcl } from '../../daemon/src/host/file-services/acl.ts';
import { setTreeAcl } from '../../daemon/src/host/file-services/tree-acl.ts';
import { swapFor } from '../helpers/symlink-swap.ts';

/**
 * Issue 11's attack on what the daemon does as root over a whole tree: while it runs, a share
 * user swaps the folder `a` for a link to a folder outside the share, again and again. Walking
 * by descriptors must never reach the outside folder.
 */
const raceMs = 8000;
const logger = createLogger({ level: 'error', console: false, sinks: [] });
const runner = new CommandRunner(logger, true);

/** getfacl of every entry below a folder: what an ACL change outside would show in. */
const aclsBelow = (folder: string) => execFileSync('getfacl', ['-R', '-P', '-p', folder], { encoding: 'utf8' });

describe('whole-tree work as root never leaves the share while a folder is swapped for a link (root)', function () {
  this.timeout(raceMs * 4 + 60_000);
  let dir: string;
  let share: string;
  let outside: string;

  before(() => {
    if (process.getuid?.() !== 0) throw new Error('This test reproduces an attack on a box, where the daemon is root: run the suite as root (CI does).');
  });
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-swap-'));
    share = path.join(dir, 'share');
    outside = path.join(dir, 'outside');
    // Enough entries below `a` that many walks are inside it when a swap happens.
    for (let d = 0; d < 20; d++) {
      mkdirSync(path.join(share, 'a', `d${d}`), { recursive: true });
      for (let f = 0; f < 20; f++) writeFileSync(path.join(share, 'a', `d${d}`, `f${f}`), 'inside');
    }
    // The outside folder mirrors the names inside, so a followed path finds something there.
    for (let d = 0; d < 20; d++) {
      mkdirSync(path.join(outside, `d${d}`), { recursive: true, mode: 0o700 });
      for (let f = 0; f < 20; f++) writeFileSync(path.join(outside, `d${d}`, `f${f}`), 'outside', { mode: 0o600 });
    }
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('ACL changes set no ACL outside', async () => {
    const acl = shareAcl({ users: [{ username: 'nobody', access: 'readWrite' }] });
    const before = aclsBelow(outside);
    const deps = { runner, logger, trashFolder: '.cellar-trash' };
    const until = Date.now() + raceMs;
    const swapping = swapFor(share, outside, raceMs, 1);
    const seen = { passes: 0, arrived: 0, refused: 0 };
    while (Date.now() < until) {
      // The whole share (a pass) and an entry below the swapped folder (entries arriving by a move).
      await setTreeAcl(deps, share, '', acl).then(
        () => seen.passes++,
        () => seen.refused++,
      );
      await setTreeAcl(deps, share, 'a/d3', acl).then(
        () => seen.arrived++,
        () => seen.refused++,
      );
    }
    expect(await swapping, 'swaps').to.be.greaterThan(300);
    expect(seen.passes, JSON.stringify(seen)).to.be.greaterThan(5);
    expect(seen.arrived, JSON.stringify(seen)).to.be.greaterThan(5);
    expect(aclsBelow(outside)).to.equal(before);
    expect(aclsBelow(path.join(share, 'a'))).to.include('user:nobody:rw-');
  });
});
