import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../bench/lib/free-port.ts';

const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8', timeout: 30_000 });
const command = path.resolve('daemon/src/areas/replication/receive-command.ts');
const tsx = fileURLToPath(import.meta.resolve('tsx'));

/**
 * The forced command behind a real sshd on a loopback port: a test account (shell /bin/sh, which
 * sshd needs to start the forced command; no password) whose only key's line is
 * `restrict,command="..."`, as a pairing will write it. Whatever the key asks, only the command
 * runs, without a terminal and without forwarding.
 */
describe('system: replication forced command behind sshd (restrict, no pty, no forwarding)', function () {
  this.timeout(120_000);
  const user = `ctest${randomBytes(3).toString('hex')}`;
  const home = `/home/${user}`;
  let work = '';
  let port = 0;
  let sshd: ChildProcess | null = null;
  let sshdLog = '';

  const ssh = (...args: string[]) =>
    run('ssh', [
      ...['-i', path.join(work, 'client'), '-p', String(port), '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes'],
      ...['-o', 'StrictHostKeyChecking=yes', '-o', `UserKnownHostsFile=${path.join(work, 'known_hosts')}`, '-o', 'ConnectTimeout=10'],
      ...args,
    ]);

  before(async () => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    work = mkdtempSync('/run/cellar-replication-ssh-');
    chmodSync(work, 0o755);
    port = await freePort();
    expect(run('useradd', ['--create-home', '--home-dir', home, '--shell', '/bin/sh', '--user-group', user]).status).to.equal(0);
    // A locked password ("!") makes sshd refuse the account even for keys; "*" has no password and is not locked.
    expect(run('usermod', ['-p', '*', user]).status).to.equal(0);
    expect(run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(work, 'host')]).status).to.equal(0);
    expect(run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(work, 'client')]).status).to.equal(0);
    writeFileSync(path.join(work, 'known_hosts'), `[127.0.0.1]:${port} ${readFileSync(path.join(work, 'host.pub'), 'utf8')}`);
    const sshDir = path.join(home, '.ssh');
    mkdirSync(sshDir, { recursive: true, mode: 0o700 });
    const forced = `${process.execPath} --import ${tsx} ${command} pairing-1 tank/replica`;
    writeFileSync(path.join(sshDir, 'authorized_keys'), `restrict,command="${forced}" ${readFileSync(path.join(work, 'client.pub'), 'utf8')}`, { mode: 0o600 });
    expect(run('chown', ['-R', `${user}:${user}`, sshDir]).status).to.equal(0);
    const config = path.join(work, 'sshd_config');
    writeFileSync(
      config,
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${path.join(work, 'host')}`,
        `PidFile ${work}/sshd.pid`,
        'UsePAM no',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PubkeyAuthentication yes',
        'AuthorizedKeysFile .ssh/authorized_keys',
        `AllowUsers ${user}`,
        '',
      ].join('\n'),
    );
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
    run('userdel', ['--remove', user]);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  for (const [what, asked] of [
    ['another command', 'id'],
    ['a dataset escaping the parent', 'receive ../../etc'],
    ['a shell metacharacter', 'receive x;id'],
    ['a command substitution', 'list $(id)'],
  ] as const) {
    it(`refuses ${what}: only the forced command runs, and it says no`, () => {
      const ran = ssh(`${user}@127.0.0.1`, asked);
      expect(ran.status, `${ran.stderr}\n${sshdLog}`).to.equal(2);
      expect(ran.stderr).to.contain('cellar: refused: ');
      expect(ran.stdout).to.not.contain('uid=');
    });
  }

  it('gives no terminal: a forced pty request is denied and the session ends without a login', () => {
    const ran = ssh('-tt', `${user}@127.0.0.1`);
    expect(ran.stderr).to.contain('PTY allocation request failed');
    expect(ran.status).to.not.equal(0);
    expect(ran.stdout).to.equal('');
  });

  it('forwards nothing: a direct-tcpip channel is administratively prohibited', () => {
    const ran = ssh('-W', `127.0.0.1:${port}`, `${user}@127.0.0.1`);
    expect(ran.status).to.not.equal(0);
    expect(ran.stderr).to.match(/administratively prohibited/);
  });
});
