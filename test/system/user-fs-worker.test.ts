import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '../../daemon/src/core/logger.ts';
import { ProblemError } from '../../daemon/src/core/problem-error.ts';
import { CommandRunner } from '../../daemon/src/host/command-runner.ts';
import { at, type ShareFs } from '../../daemon/src/host/share-fs/share-fs.ts';
import { UserFsPool } from '../../daemon/src/host/share-fs/user-fs-pool.ts';

/**
 * The second wall: a share user's file calls run in a worker process with the user's uid, gid
 * and groups, so a path the daemon's checks missed reaches only what the user could reach over
 * SFTP. As root with a real account (a random `ctfs` name, removed afterwards) and real ACLs.
 */
describe('user file workers (root, a real account and ACLs)', function () {
  this.timeout(60_000);
  const username = `ctfs${randomBytes(3).toString('hex')}`;
  const groupName = `${username}g`;
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8', timeout: 20_000 });
  const logger = createLogger({ level: 'error', console: false, sinks: [] });
  let dir: string;
  let share: string;
  let uid: number;
  let gid: number;
  let extraGid: number;
  let pool: UserFsPool;

  const newPool = (idleMs?: number) =>
    new UserFsPool({ account: async (id) => (id === 1 ? { username, uid } : null), runner: new CommandRunner(logger, true), logger, idleMs });

  const problemOf = async (p: Promise<unknown>): Promise<string> => {
    try {
      await p;
    } catch (err) {
      if (err instanceof ProblemError) return err.code;
      return `errno ${(err as NodeJS.ErrnoException).code}`;
    }
    return 'no error';
  };

  const readAll = async (fs: ShareFs, file: string): Promise<string> => {
    const handle = await fs.open(file, constants.O_RDONLY);
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  };

  before(() => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    expect(run('which', ['setfacl']).status, 'setfacl is installed (apt-get install acl)').to.equal(0);
    expect(run('groupadd', [groupName]).status).to.equal(0);
    expect(run('useradd', ['--gid', 'users', '--groups', groupName, '--no-create-home', '--shell', '/usr/sbin/nologin', username]).status).to.equal(0);
    uid = Number(run('id', ['-u', username]).stdout);
    gid = Number(run('id', ['-g', username]).stdout);
    extraGid = Number(run('getent', ['group', groupName]).stdout.split(':')[2]);
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-userfs-'));
    // mkdtemp makes 0700: the user must be able to walk to the share as over SFTP.
    run('chmod', ['0755', dir]);
    share = path.join(dir, 'share');
    mkdirSync(share, { mode: 0o770 });
    writeFileSync(path.join(share, 'readable.txt'), 'for the user\n', { mode: 0o644 });
    writeFileSync(path.join(share, 'private.txt'), 'root only\n', { mode: 0o600 });
    mkdirSync(path.join(dir, 'outside'), { mode: 0o700 });
    writeFileSync(path.join(dir, 'outside', 'secret'), 'outside\n', { mode: 0o600 });
    // What the share's grant gives the user on disk (host/file-services/acl.ts does this on a box).
    expect(run('setfacl', ['-m', `u:${username}:rwx`, '-d', '-m', `u:${username}:rwx`, share]).status).to.equal(0);
    pool = newPool();
  });

  after(() => {
    pool?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    run('userdel', [username]);
    run('groupdel', [groupName]);
  });

  it('runs the worker with the user’s uid, gid and groups', async () => {
    const fs = (await pool.forUser(1)) as ShareFs & { pid: number };
    expect(fs.identity).to.equal(username);
    const status = readFileSync(`/proc/${fs.pid}/status`, 'utf8');
    const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1]?.trim().split(/\s+/).map(Number);
    expect(field('Uid')).to.deep.equal([uid, uid, uid, uid]);
    expect(field('Gid')).to.deep.equal([gid, gid, gid, gid]);
    expect(field('Groups')).to.have.members([gid, extraGid]);
  });

  it('reads what the user may read and is refused the rest, inside the share and out', async () => {
    const fs = await pool.forUser(1);
    expect(await readAll(fs, path.join(share, 'readable.txt'))).to.equal('for the user\n');
    expect(await problemOf(readAll(fs, path.join(share, 'private.txt')))).to.equal('fs.entry.forbidden');
    // As if a share check had been missed: the kernel still stops the user.
    expect(await problemOf(readAll(fs, path.join(dir, 'outside', 'secret')))).to.equal('fs.entry.forbidden');
    expect(await problemOf(readAll(fs, '/etc/shadow'))).to.equal('fs.entry.forbidden');
    expect(await problemOf(fs.mkdir('/etc/cellar-wall-test'))).to.equal('fs.entry.forbidden');
    expect(() => statSync('/etc/cellar-wall-test')).to.throw();
  });

  it('writes as the user: a new file belongs to the user, written through the daemon’s handle', async () => {
    const fs = await pool.forUser(1);
    await fs.withDir(share, async (dir) => {
      const handle = await fs.open(at(dir, 'temp'), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o666);
      try {
        await handle.writeFile('uploaded\n');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(at(dir, 'temp'), at(dir, 'upload.txt'));
      await fs.syncFolder(at(dir));
    });
    const s = statSync(path.join(share, 'upload.txt'));
    expect(s.uid).to.equal(uid);
    expect(readFileSync(path.join(share, 'upload.txt'), 'utf8')).to.equal('uploaded\n');
    expect((await fs.lstat(path.join(share, 'upload.txt'))).isFile()).to.equal(true);
    expect((await fs.lstatBig(path.join(share, 'upload.txt'))).size).to.equal(9n);
    expect(await problemOf(fs.unlink(path.join(share, 'private.txt')))).to.equal('no error');
  });

  it('ends an idle worker, keeps one that holds a folder, and replaces one that died', async () => {
    const quick = newPool(150);
    try {
      const first = (await quick.forUser(1)) as ShareFs & { pid: number; alive: boolean };
      await first.withDir(share, async () => sleep(400));
      expect(first.alive, 'a held folder keeps the worker').to.equal(true);
      await sleep(600);
      expect(first.alive, 'idle worker ended').to.equal(false);
      const second = (await quick.forUser(1)) as ShareFs & { pid: number; alive: boolean };
      expect(second.pid).to.not.equal(first.pid);
      process.kill(second.pid, 'SIGKILL');
      await sleep(200);
      const third = (await quick.forUser(1)) as ShareFs & { pid: number };
      expect(third.pid).to.not.equal(second.pid);
      expect(await third.readdir(share)).to.include('readable.txt');
    } finally {
      quick.close();
    }
  });
});
