import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { X509Certificate, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TlsStore } from '../../daemon/src/areas/tls/tls-store.ts';
import type { Pairing } from '../../shared/src/api/replication/replication.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { ensureZfsFuse, LoopDisks, sh } from './zfs-fixture.ts';

const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8', timeout: 30_000 });

/**
 * A pairing made through the API, then used as the send engine will use it: the source's key and
 * pinned known_hosts against a real sshd on a loopback port, signing in as the target's real
 * replica account (a test name), whose authorized_keys the target daemon wrote. The key runs the
 * forced command and nothing else; once unpaired it runs nothing at all.
 */
describe('system: a paired key behind a real sshd runs only the forced command', function () {
  this.timeout(180_000);
  const user = `ctest${randomBytes(3).toString('hex')}`;
  const pool = `creplssh${process.pid}`;
  let work = '';
  let home = '';
  let disks: LoopDisks;
  let port = 0;
  let sshd: ChildProcess | null = null;
  let sshdLog = '';
  let target: TestDaemon;
  let source: TestDaemon;
  let targetAdmin: TestClient;
  let paired: Pairing;

  const ssh = (...args: string[]) => {
    const dir = path.join(source.dataDir, 'replication', 'pairings', paired.id);
    return run('ssh', [
      ...['-i', path.join(dir, 'id_ed25519'), '-p', String(port), '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes'],
      ...['-o', 'StrictHostKeyChecking=yes', '-o', `UserKnownHostsFile=${path.join(dir, 'known_hosts')}`, '-o', 'ConnectTimeout=10'],
      ...args,
    ]);
  };

  before(async () => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    await ensureZfsFuse();
    disks = new LoopDisks(pool);
    disks.add(1);
    disks.pools.add(pool);
    sh(['zpool', 'create', '-f', '-m', path.join(disks.work, 'mnt'), pool, disks.loops[0]!]);
    sh(['zfs', 'create', `${pool}/replica`]);
    // Below /run, whose folders sshd's StrictModes accepts (root's, not writable by others).
    work = mkdtempSync('/run/cellar-replication-pairing-');
    chmodSync(work, 0o755);
    home = path.join(work, 'home');
    port = await freePort();
    expect(run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(work, 'host')]).status).to.equal(0);
    const replication = { account: { name: user, home }, accounts: true, sshHostKeyFile: path.join(work, 'host.pub'), sshPort: port };
    target = await startTestDaemon({ https: true }, { replication });
    source = await startTestDaemon();
    targetAdmin = await target.signIn();
    const root = new TlsStore(path.join(target.dataDir, 'tls'), path.join(target.dataDir, 'tls-secret')).rootPem()!;
    const { code } = await targetAdmin.api.replication.createOffer({ body: { parent: `${pool}/replica` } });
    const sourceAdmin = await source.signIn();
    const address = `127.0.0.1:${new URL(target.url).port}`;
    paired = await sourceAdmin.api.replication.pair({ body: { address, code, rootFingerprint: new X509Certificate(root).fingerprint256 } });

    const config = path.join(work, 'sshd_config');
    const lines = [`Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${path.join(work, 'host')}`, `PidFile ${work}/sshd.pid`, 'UsePAM no'];
    lines.push('PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'PubkeyAuthentication yes', 'AuthorizedKeysFile .ssh/authorized_keys');
    writeFileSync(config, [...lines, `AllowUsers ${user}`, ''].join('\n'));
    mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    sshd = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    sshd.stderr?.on('data', (d: Buffer) => (sshdLog += d.toString()));
    for (let i = 0; !/Server listening/.test(sshdLog); i++) {
      if (sshd.exitCode !== null || i > 200) throw new Error(`sshd did not start: ${sshdLog}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  });

  after(async () => {
    if (sshd && sshd.exitCode === null) {
      const exited = new Promise((r) => sshd?.once('exit', r));
      sshd.kill('SIGTERM');
      await exited;
    }
    await source?.close();
    await target?.close();
    run('userdel', [user]);
    run('groupdel', [user]);
    if (work) rmSync(work, { recursive: true, force: true });
    await disks?.cleanup();
  });

  it('made the replica account: a system account with /bin/sh, no password, and a root-owned authorized_keys', () => {
    const [, , uid, , , accountHome, shell] = run('getent', ['passwd', user]).stdout.trim().split(':');
    expect(Number(uid)).to.be.below(1000);
    expect({ accountHome, shell }).to.deep.equal({ accountHome: home, shell: '/bin/sh' });
    expect(run('getent', ['shadow', user]).stdout.split(':')[1]).to.equal('*');
    const file = path.join(home, '.ssh', 'authorized_keys');
    expect(readFileSync(file, 'utf8')).to.match(/^restrict,command="/);
    expect(run('stat', ['-c', '%U %a', file]).stdout.trim()).to.equal('root 644');
  });

  it('runs the forced command for an allowed request: the grammar passes it to zfs', () => {
    const ran = ssh(`${user}@127.0.0.1`, 'list nothing-here');
    // ssh signed in (255 would be its own failure) and the command let zfs run: whatever zfs answers
    // (zfs-fuse lets only root talk to it), it is not the forced command's refusal.
    expect(ran.status, `${ran.stderr}\n${sshdLog}`).to.not.equal(255);
    expect(ran.stderr).to.not.contain('cellar: refused');
    expect(ran.stderr).to.not.contain('Permission denied (publickey)');
  });

  for (const [what, asked] of [
    ['another command', 'id'],
    ['a dataset escaping the parent', 'receive ../../etc'],
    ['a shell metacharacter', 'receive x;id'],
    ['no command at all', ''],
  ] as const) {
    it(`refuses ${what}`, () => {
      const ran = ssh(`${user}@127.0.0.1`, ...(asked ? [asked] : []));
      expect(ran.status, `${ran.stderr}\n${sshdLog}`).to.equal(2);
      expect(ran.stderr).to.contain('cellar: refused: ');
      expect(ran.stdout).to.not.contain('uid=');
    });
  }

  it('gives no terminal and forwards nothing', () => {
    expect(ssh('-tt', `${user}@127.0.0.1`).stderr).to.contain('PTY allocation request failed');
    const forwarded = ssh('-W', `127.0.0.1:${port}`, `${user}@127.0.0.1`);
    expect(forwarded.status).to.not.equal(0);
    expect(forwarded.stderr).to.match(/administratively prohibited/);
  });

  it('lets the key in no more once the target ends the pairing', async () => {
    const [onTarget] = await targetAdmin.api.replication.pairings();
    await targetAdmin.api.replication.unpair({ params: { id: onTarget!.id } });
    const ran = ssh(`${user}@127.0.0.1`, 'list x');
    expect(ran.status).to.equal(255);
    expect(ran.stderr).to.contain('Permission denied (publickey)');
  });
});
