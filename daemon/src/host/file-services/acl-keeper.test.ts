import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../core/logger.ts';
import { aclMode, shareAcl } from './acl.ts';
import { AclKeeper } from './acl-keeper.ts';

const logger = createLogger({ level: 'error', console: false, sinks: [] });
// Accounts every Debian system has, as a read-write and a read grant.
const acl = shareAcl({
  users: [
    { username: 'daemon', access: 'readWrite' },
    { username: 'nobody', access: 'read' },
  ],
});
const mode = (p: string) => statSync(p).mode & 0o7777;

describe('aclMode', () => {
  it('takes owner, mask and other from the access ACL, X as setfacl does', () => {
    expect(aclMode(acl.access, { directory: false, mode: 0o100644 })).to.equal(0o660);
    expect(aclMode(acl.access, { directory: false, mode: 0o100700 })).to.equal(0o770);
    expect(aclMode(acl.access, { directory: true, mode: 0o40755 })).to.equal(0o770);
    expect(aclMode('u::rwX,g::---,o::r--,u:a:rX,m::rX', { directory: false, mode: 0o100600 })).to.equal(0o644);
    expect(aclMode('u::rwx,g::---,m::r-x', { directory: false, mode: 0o100600 })).to.equal(0o750);
  });
});

// A real tree with a default ACL, as the full pass leaves it (needs root for the named entries).
describe('AclKeeper on a real file system', () => {
  let dir: string;
  let tree: string;
  let keeper: AclKeeper;

  async function until(check: () => boolean, ms = 3000): Promise<void> {
    const end = Date.now() + ms;
    while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    await keeper.settled();
  }

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-keeper-'));
    tree = path.join(dir, 'share');
    mkdirSync(path.join(tree, 'old'), { recursive: true });
    execFileSync('setfacl', ['-R', '--set', acl.access, tree]);
    execFileSync('setfacl', ['-R', '-d', '--set', acl.defaults, tree]);
    keeper = new AclKeeper({ logger, apply: true, trashFolder: '.cellar-trash', debounceMs: 10, maxWaitMs: 100 });
    await keeper.keep([{ id: 1, hostPath: tree, access: acl.access }]);
    await keeper.settled();
  });

  afterEach(() => {
    keeper.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives new files and folders the full mask, whatever mode they were made with', async () => {
    const file = path.join(tree, 'upload.txt');
    writeFileSync(file, 'x', { mode: 0o644 });
    const folder = path.join(tree, 'made');
    mkdirSync(folder, { mode: 0o755 });
    // Made at once inside the new folder, before its watch can exist.
    writeFileSync(path.join(folder, 'inner.sh'), 'x', { mode: 0o700 });
    mkdirSync(path.join(tree, 'old', 'deep'), { mode: 0o700 });
    await until(() => mode(file) === 0o660 && mode(folder) === 0o770 && mode(path.join(folder, 'inner.sh')) === 0o770);
    expect(mode(file)).to.equal(0o660);
    expect(mode(folder)).to.equal(0o770);
    expect(mode(path.join(folder, 'inner.sh'))).to.equal(0o770);
    expect(mode(path.join(tree, 'old', 'deep'))).to.equal(0o770);
    const facl = execFileSync('getfacl', ['-p', '-c', file], { encoding: 'utf8' });
    expect(facl).to.include('user:daemon:rwx\t#effective:rw-').and.include('mask::rw-').and.include('other::---');
  });

  it('puts back a narrowed mode, and follows a folder renamed within the share', async () => {
    const file = path.join(tree, 'old', 'kept.txt');
    writeFileSync(file, 'x', { mode: 0o660 });
    await until(() => mode(file) === 0o660);
    chmodSync(file, 0o4600);
    await until(() => mode(file) === 0o660);
    expect(mode(file), 'set-user-ID dropped too').to.equal(0o660);
    renameSync(path.join(tree, 'old'), path.join(tree, 'renamed'));
    await until(() => false, 100);
    writeFileSync(path.join(tree, 'renamed', 'after.txt'), 'x', { mode: 0o600 });
    await until(() => mode(path.join(tree, 'renamed', 'after.txt')) === 0o660);
    expect(mode(path.join(tree, 'renamed', 'after.txt'))).to.equal(0o660);
  });

  it('never changes anything through a symbolic link, nor the old recycle bin', async () => {
    const outside = path.join(dir, 'outside');
    mkdirSync(outside, { mode: 0o700 });
    writeFileSync(path.join(outside, 'passwd'), 'x', { mode: 0o600 });
    chmodSync(outside, 0o700);
    symlinkSync(path.join(outside, 'passwd'), path.join(tree, 'link'));
    // A watched folder swapped for a link to elsewhere between an event and its handling:
    // the entry's path now resolves outside.
    mkdirSync(path.join(tree, 'swap'), { mode: 0o755 });
    await until(() => mode(path.join(tree, 'swap')) === 0o770);
    writeFileSync(path.join(tree, 'swap', 'passwd'), 'x', { mode: 0o600 });
    rmSync(path.join(tree, 'swap'), { recursive: true });
    symlinkSync(outside, path.join(tree, 'swap'));
    const trash = path.join(tree, '.cellar-trash');
    mkdirSync(trash, { mode: 0o700 });
    writeFileSync(path.join(trash, 'deleted'), 'x', { mode: 0o600 });
    const witness = path.join(tree, 'witness');
    writeFileSync(witness, 'x', { mode: 0o600 });
    await until(() => mode(witness) === 0o660);
    expect(mode(witness)).to.equal(0o660);
    expect(mode(outside)).to.equal(0o700);
    expect(mode(path.join(outside, 'passwd'))).to.equal(0o600);
    expect(lstatSync(path.join(tree, 'link')).isSymbolicLink()).to.equal(true);
    expect(mode(trash)).to.equal(0o700);
    expect(mode(path.join(trash, 'deleted'))).to.equal(0o600);
  });

  it('stops keeping a share no longer given, and changes nothing in development mode', async () => {
    await keeper.keep([]);
    const file = path.join(tree, 'after-stop.txt');
    writeFileSync(file, 'x', { mode: 0o600 });
    await new Promise((r) => setTimeout(r, 150));
    expect(mode(file)).to.equal(0o600);
    const dev = new AclKeeper({ logger, apply: false, trashFolder: '.cellar-trash', debounceMs: 10, maxWaitMs: 100 });
    await dev.keep([{ id: 1, hostPath: tree, access: acl.access }]);
    writeFileSync(path.join(tree, 'dev.txt'), 'x', { mode: 0o600 });
    await new Promise((r) => setTimeout(r, 150));
    await dev.settled();
    expect(mode(path.join(tree, 'dev.txt'))).to.equal(0o600);
    dev.close();
  });
});
