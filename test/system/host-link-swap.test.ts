import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../daemon/src/core/logger.ts';
import { CommandRunner } from '../../daemon/src/host/command-runner.ts';
import { copyTree } from '../../daemon/src/host/copy-tree.ts';
import { shareAcl } from '../../daemon/src/host/file-services/acl.ts';
import { setTreeAcl } from '../../daemon/src/host/file-services/tree-acl.ts';
import { removeTree } from '../../daemon/src/host/nofollow-fs.ts';
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

/** Every file below a folder with its content (links not followed). */
function contents(folder: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true, encoding: 'utf8' })) {
    if (entry.isFile()) out.set(path.relative(folder, path.join(entry.parentPath, entry.name)), readFileSync(path.join(entry.parentPath, entry.name), 'utf8'));
  }
  return out;
}

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
    expect(await swapping, 'swaps').to.be.greaterThan(100);
    expect(seen.passes, JSON.stringify(seen)).to.be.greaterThan(2);
    expect(seen.arrived, JSON.stringify(seen)).to.be.greaterThan(2);
    expect(aclsBelow(outside)).to.equal(before);
    expect(aclsBelow(path.join(share, 'a'))).to.include('user:nobody:rw-');
  });

  it('a home copy reads nothing from outside the source and writes nothing outside the target', async () => {
    const before = contents(outside);
    const deps = { runner, logger };
    const seen = { copies: 0, refused: 0 };
    const leaks: string[] = [];
    // The source swapped: nothing of the outside folder may come into a copy.
    let until = Date.now() + raceMs / 2;
    let swapping = swapFor(share, outside, raceMs / 2, 1);
    for (let i = 0; Date.now() < until; i++) {
      const target = path.join(dir, `copy-${i}`);
      mkdirSync(target);
      await copyTree(deps, share, target).then(
        () => seen.copies++,
        () => seen.refused++,
      );
      for (const [name, text] of contents(target)) if (text !== 'inside') leaks.push(`copy-${i}/${name}`);
      await removeTree(target);
    }
    expect(await swapping, 'source swaps').to.be.greaterThan(20);
    // The target swapped (a target inside a share): nothing may be written through it.
    const target = path.join(dir, 'target');
    until = Date.now() + raceMs / 2;
    swapping = swapFor(target, outside, raceMs / 2, 1);
    for (let i = 0; Date.now() < until; i++) {
      mkdirSync(target);
      await copyTree(deps, share, target).then(
        () => seen.copies++,
        () => seen.refused++,
      );
      // Out of the swapper's way at once: a removal would race it.
      renameSync(target, path.join(dir, `done-${i}`));
    }
    expect(await swapping, 'target swaps').to.be.greaterThan(20);
    expect(leaks).to.deep.equal([]);
    expect(contents(outside)).to.deep.equal(before);
    // A copy fails by design when a folder it enters is a link at that moment (one seen as a link is copied as one).
    expect(seen.copies + seen.refused, JSON.stringify(seen)).to.be.greaterThan(3);
    expect(seen.copies, JSON.stringify(seen)).to.be.greaterThan(0);
  });
});
