import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../core/logger.ts';
import { CommandRunner } from '../command-runner.ts';
import { shareAcl } from './acl.ts';
import { setTreeAcl, type TreeAclDeps } from './tree-acl.ts';

const logger = createLogger({ level: 'error', console: false, sinks: [] });
// Accounts every Debian system has, as a read-write and a read grant.
const acl = shareAcl({
  users: [
    { username: 'daemon', access: 'readWrite' },
    { username: 'nobody', access: 'read' },
  ],
});
const deps: TreeAclDeps = { runner: new CommandRunner(logger, true), logger, trashFolder: '.cellar-trash' };

/** Every entry's ACL below `top` (links skipped), keyed by its path relative to `top`. */
function acls(top: string): Map<string, string> {
  const out = execFileSync('getfacl', ['-R', '-P', '-p', top], { encoding: 'utf8' });
  const blocks = new Map<string, string>();
  for (const block of out.split('\n\n').filter((b) => b.trim() !== '')) {
    const [head, ...rest] = block.split('\n');
    blocks.set(path.relative(top, head!.replace(/^# file: /, '')), rest.join('\n'));
  }
  return blocks;
}

/** A share with what a user can leave in one: modes of all kinds, links in and out, a FIFO, old recycle bins. */
function makeTree(top: string, outside: string): void {
  mkdirSync(path.join(top, 'dir', 'sub'), { recursive: true });
  mkdirSync(path.join(top, 'dir', '.cellar-trash'));
  mkdirSync(path.join(top, '.cellar-trash'));
  writeFileSync(path.join(top, 'file.txt'), 'x', { mode: 0o644 });
  writeFileSync(path.join(top, 'run.sh'), 'x', { mode: 0o755 });
  writeFileSync(path.join(top, 'dir', 'inner.txt'), 'x', { mode: 0o600 });
  writeFileSync(path.join(top, 'dir', '.cellar-trash', 'nested'), 'x', { mode: 0o600 });
  writeFileSync(path.join(top, '.cellar-trash', 'deleted'), 'x', { mode: 0o600 });
  chmodSync(path.join(top, 'dir', 'sub'), 0o700);
  symlinkSync(outside, path.join(top, 'out'));
  symlinkSync('../file.txt', path.join(top, 'dir', 'in'));
  symlinkSync('nowhere', path.join(top, 'dangling'));
  execFileSync('mkfifo', [path.join(top, 'dir', 'fifo')]);
}

describe('setTreeAcl', () => {
  let dir: string;
  let outside: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-tree-acl-'));
    outside = path.join(dir, 'outside');
    mkdirSync(outside, { mode: 0o700 });
    writeFileSync(path.join(outside, 'passwd'), 'x', { mode: 0o600 });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves every entry with the ACL find and setfacl -P gave it, nothing outside touched', async () => {
    const byFind = path.join(dir, 'by-find');
    const byWalk = path.join(dir, 'by-walk');
    makeTree(byFind, outside);
    makeTree(byWalk, outside);
    const outsideBefore = acls(outside);
    // The commands this module replaces, as they ran before.
    const walk = ['find', byFind, '-path', path.join(byFind, '.cellar-trash'), '-prune', '-o', '!', '-type', 'l'];
    execFileSync(walk[0]!, [...walk.slice(1), '-exec', 'setfacl', '-P', '--set', acl.access, '{}', '+']);
    execFileSync(walk[0]!, [...walk.slice(1), '-type', 'd', '-exec', 'setfacl', '-P', '-d', '--set', acl.defaults, '{}', '+']);
    await setTreeAcl(deps, byWalk, '', acl);
    const want = acls(byFind);
    expect(want.get('dir/inner.txt')).to.include('user:daemon:rw-').and.include('mask::rw-');
    expect(want.get('.cellar-trash/deleted')).to.not.include('daemon');
    expect(acls(byWalk)).to.deep.equal(want);
    expect(acls(outside)).to.deep.equal(outsideBefore);
  });

  it('sets an entry inside the share and what is below it, and nothing through a link', async () => {
    const share = path.join(dir, 'share');
    makeTree(share, outside);
    await setTreeAcl(deps, share, 'dir', acl);
    const got = acls(share);
    expect(got.get('dir')).to.include('default:user:nobody:r-x');
    expect(got.get('dir/sub')).to.include('user:daemon:rwx');
    expect(got.get('dir/.cellar-trash/nested'), 'a bin right below the top is left out, as find pruned it').to.not.include('daemon');
    expect(got.get(''), 'the share folder itself is not the entry').to.not.include('daemon');
    expect(got.get('file.txt')).to.not.include('daemon');
    const outsideBefore = acls(outside);
    await setTreeAcl(deps, share, 'out', acl);
    await setTreeAcl(deps, share, 'dangling', acl);
    let refused: unknown = null;
    await setTreeAcl(deps, share, 'out/passwd', acl).catch((err: unknown) => (refused = err));
    expect(refused, 'a link in the way is refused').to.have.property('code', 'fs.path.outside_share');
    refused = null;
    await setTreeAcl(deps, share, '../outside', acl).catch((err: unknown) => (refused = err));
    expect(String(refused), 'no climbing out').to.include('inside the share');
    expect(acls(outside)).to.deep.equal(outsideBefore);
  });

  it('fails for a share folder that is gone, and changes nothing in development mode', async () => {
    let failed: unknown = null;
    await setTreeAcl(deps, path.join(dir, 'missing'), '', acl).catch((err: unknown) => (failed = err));
    expect(failed).to.have.property('code', 'ENOENT');
    const share = path.join(dir, 'share');
    makeTree(share, outside);
    const before = acls(share);
    await setTreeAcl({ ...deps, runner: new CommandRunner(logger, false) }, share, '', acl);
    expect(acls(share)).to.deep.equal(before);
  });
});
