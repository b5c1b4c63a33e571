import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../daemon/src/core/logger.ts';
import { SystemAccounts } from '../../daemon/src/host/accounts.ts';
import { CommandRunner } from '../../daemon/src/host/command-runner.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { adminPassword, expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';

/**
 * The backup round trip on real accounts as root: users' system accounts, PAM passwords, Samba's
 * passdb (a private smb.conf) and SSH host keys (a private folder), with a real smbd and sshd on
 * loopback ports that restored users sign in to. The daemon runs in development
 * mode with the backup's host effects on, so only the restore touches the machine, and only names
 * under a random `cbk` prefix with uids high in the users' range are made; all go afterwards.
 */
describe('backup round trip on real accounts (root: useradd, PAM, Samba passdb, SSH host keys)', function () {
  this.timeout(120_000);
  const prefix = `cbk${randomBytes(3).toString('hex')}`;
  const name = (suffix: string) => `${prefix}${suffix}`;
  const passwords = { adm: adminPassword, kim: 'kim old password 1', lea: 'lea old password 1', max: 'max password 123' };
  let dir: string;
  let smbConf: string;
  let sshDir: string;
  let box: TestDaemon;
  let admin: TestClient;
  let host: SystemAccounts;
  let restarts = 0;
  let sshd: ChildProcess | null = null;
  let smbd: ChildProcess | null = null;
  let sshPort = 0;
  let smbPort = 0;

  const run = (cmd: string, args: string[], input?: string) => spawnSync(cmd, args, { input, encoding: 'utf8', timeout: 20_000 });
  const uidOf = (user: string) => {
    const entry = run('getent', ['passwd', user]);
    return entry.status === 0 ? Number(entry.stdout.split(':')[2]) : null;
  };
  const pamOk = (user: string, password: string) => run('pamtester', ['login', user, 'authenticate'], `${password}\n`).status === 0;
  const ntHash = (user: string) => new RegExp(`^${user}:\\d+:[^:]*:([0-9A-F]{32}):`, 'm').exec(run('pdbedit', ['-s', smbConf, '-L', '-w']).stdout)?.[1] ?? null;
  const hostKey = () => path.join(sshDir, 'ssh_host_ed25519_key');
  const presentedKey = () => run('ssh-keyscan', ['-t', 'ed25519', '-p', String(sshPort), '127.0.0.1']).stdout;
  const keyBody = (publicKey: string) => publicKey.split(' ')[1] ?? '?';
  const sftpOk = (user: string, password: string) =>
    run(
      'sshpass',
      [
        '-p',
        password,
        'sftp',
        '-o',
        'BatchMode=no',
        '-o',
        'StrictHostKeyChecking=no',
        '-o',
        'UserKnownHostsFile=/dev/null',
        '-P',
        String(sshPort),
        '-b',
        '-',
        `${user}@127.0.0.1`,
      ],
      'pwd\n',
    ).status === 0;
  /** smbclient's answer: empty when the listing worked, else what it said. */
  const smbFailure = (user: string, password: string) => {
    const r = run('smbclient', [`//127.0.0.1/restored`, '-p', String(smbPort), '-U', `${user}%${password}`, '-c', 'ls']);
    return r.status === 0 ? '' : `${r.stdout}${r.stderr}`.trim() || `exit ${r.status}`;
  };
  const waitPort = async (port: number) => {
    for (let i = 0; i < 100 && run('sh', ['-c', `exec 3<>/dev/tcp/127.0.0.1/${port}`]).status !== 0; i++) await new Promise((r) => setTimeout(r, 100));
  };
  const newHostKey = () => {
    rmSync(hostKey(), { force: true });
    rmSync(`${hostKey()}.pub`, { force: true });
    expect(run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey()]).status).to.equal(0);
  };

  before(async () => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    for (const tool of ['useradd', 'chpasswd', 'pdbedit', 'smbpasswd', 'pamtester', 'ssh-keygen'])
      expect(run('which', [tool]).status, `${tool} is installed`).to.equal(0);
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-backup-'));
    for (const sub of ['private', 'lock', 'state', 'cache', 'pid', 'ssh']) mkdirSync(path.join(dir, sub));
    for (const tool of ['smbd', 'smbclient', 'sshpass', 'sftp', 'ssh-keyscan']) expect(run('which', [tool]).status, `${tool} is installed`).to.equal(0);
    smbConf = path.join(dir, 'smb.conf');
    smbPort = await freePort();
    sshPort = await freePort();
    writeFileSync(
      smbConf,
      `[global]\n  passdb backend = tdbsam:${dir}/passdb.tdb\n  private dir = ${dir}/private\n  lock directory = ${dir}/lock\n  state directory = ${dir}/state\n  cache directory = ${dir}/cache\n  pid directory = ${dir}/pid\n  disable netbios = yes\n` +
        `  interfaces = 127.0.0.1\n  bind interfaces only = yes\n  smb ports = ${smbPort}\n  log file = ${dir}/smbd.log\n[restored]\n  path = /usr/share/common-licenses\n  read only = yes\n`,
    );
    sshDir = path.join(dir, 'ssh');
    newHostKey();
    const sshdConf = path.join(dir, 'sshd_config');
    writeFileSync(
      sshdConf,
      `Port ${sshPort}\nListenAddress 127.0.0.1\nHostKey ${hostKey()}\nPidFile ${dir}/sshd.pid\nUsePAM yes\nPasswordAuthentication yes\nKbdInteractiveAuthentication no\nSubsystem sftp internal-sftp\nForceCommand internal-sftp\nAllowUsers ${prefix}*\n`,
    );
    mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    // sshd re-executes itself on SIGHUP (and then reads its host keys again): it needs its absolute path.
    sshd = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', sshdConf], { stdio: 'ignore', detached: true });
    // Own process groups: smbd signals its whole group when it stops, which would include mocha.
    smbd = spawn('smbd', ['--foreground', '--no-process-group', '-s', smbConf], { stdio: 'ignore', detached: true });
    await waitPort(sshPort);
    await waitPort(smbPort);
    const sshReload = ['kill', '-HUP', String(sshd.pid)];
    box = await startTestDaemon({}, { restart: () => void restarts++, backup: { applyHost: true, smbConf, sshDir, sshReload } });
    // High in the users' range, away from accounts other tests on this machine make; the development admin gets a name of ours.
    const base = 29000 + Math.floor(Math.random() * 900);
    await box.daemon.db.query("UPDATE account_ids SET last = ? WHERE kind = 'uid'", { replacements: [base] });
    await box.daemon.db.query("UPDATE users SET username = ?, uid = ? WHERE username = 'admin'", { replacements: [name('adm'), base - 50] });
    host = new SystemAccounts(new CommandRunner(createLogger({ level: 'error', console: false, sinks: [] }), true), { smbConf });
    admin = await box.signIn(name('adm'), passwords.adm);
  });

  after(async () => {
    for (const suffix of Object.keys(passwords)) {
      run('pdbedit', ['-s', smbConf, '-x', '-u', name(suffix)]);
      run('userdel', [name(suffix)]);
    }
    await box?.close();
    sshd?.kill();
    smbd?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('brings back accounts with their uids, PAM and Samba passwords, the web sign-in and the SSH host key', async () => {
    // The box before the backup: each user has its system account and SMB entry, as on a box.
    const users = [
      { username: name('adm'), uid: (await admin.api.users.list()).find((u) => u.username === name('adm'))?.uid as number, password: passwords.adm },
    ];
    for (const suffix of ['kim', 'lea'] as const) {
      const created = await admin.api.users.create({ body: { username: name(suffix), password: passwords[suffix] } });
      users.push({ username: created.username, uid: created.uid, password: passwords[suffix] });
    }
    for (const u of users) await host.createUser({ ...u, displayName: u.username, active: true });
    const hashes = Object.fromEntries(users.map((u) => [u.username, ntHash(u.username)]));
    expect(Object.values(hashes).every((h) => h !== null)).to.equal(true);
    const key = readFileSync(hostKey(), 'utf8');
    const publicKey = readFileSync(`${hostKey()}.pub`, 'utf8');
    expect(presentedKey()).to.include(keyBody(publicKey));
    const file = Buffer.from(await (await admin.api.backup.create({ body: { password: 'backup passphrase 1' } })).arrayBuffer());

    // Then: kim's password changes, lea's account is lost (a new box), max arrives, the host key is new.
    const kim = users[1]!;
    const lea = users[2]!;
    await admin.api.users.resetPassword({
      params: { userId: (await admin.api.users.list()).find((u) => u.username === kim.username)?.id as number },
      body: { password: 'kim new password 2' },
    });
    await host.setPassword(kim.username, 'kim new password 2');
    await host.deleteUser(lea.username);
    const max = await admin.api.users.create({ body: { username: name('max'), password: passwords.max } });
    await host.createUser({ username: max.username, uid: max.uid, displayName: '', password: passwords.max, active: true });
    newHostKey();
    // As on a new box: sshd presents the new key.
    process.kill(sshd?.pid as number, 'SIGHUP');
    await new Promise((r) => setTimeout(r, 500));
    await waitPort(sshPort);
    expect(presentedKey()).to.not.include(keyBody(publicKey));
    expect(uidOf(lea.username)).to.equal(null);

    const summary = await admin.api.backup.inspect({ body: { password: 'backup passphrase 1', backup: file.toString('base64') } });
    expect(summary.parts.find((p) => p.name === 'ssh')?.counts).to.deep.equal({ hostKeys: 1 });
    const result = await admin.api.backup.restore({ body: { backupId: summary.backupId, parts: ['users', 'ssh'] } });
    expect(result).to.include({ signedOut: true, restarting: true });
    expect(result.hostFailed).to.deep.equal([]);
    expect(restarts).to.equal(1);

    // The web sign-in first: the PAM checks below take long enough for an idle keep-alive socket to close.
    for (const u of users) await box.signIn(u.username, u.password);
    await expectProblem(box.signIn(kim.username, 'kim new password 2'), 'auth.credentials.invalid', 401);
    for (const u of users) {
      expect(uidOf(u.username), u.username).to.equal(u.uid);
      expect(pamOk(u.username, u.password), `${u.username} signs in with the old password (PAM)`).to.equal(true);
      expect(ntHash(u.username), `${u.username}'s SMB password`).to.equal(hashes[u.username]);
    }
    expect(pamOk(kim.username, 'kim new password 2')).to.equal(false);
    expect(uidOf(max.username), 'the account of a user the backup lacks is gone').to.equal(null);
    expect(ntHash(max.username)).to.equal(null);
    expect(readFileSync(hostKey(), 'utf8')).to.equal(key);
    expect(statSync(hostKey()).mode & 0o777).to.equal(0o600);

    // The restore reloaded sshd: it presents the restored key; restored users sign in over SFTP and SMB with their old passwords.
    await new Promise((r) => setTimeout(r, 500));
    await waitPort(sshPort);
    expect(presentedKey()).to.include(keyBody(publicKey));
    for (const u of users) {
      expect(sftpOk(u.username, u.password), `${u.username} over SFTP`).to.equal(true);
      expect(smbFailure(u.username, u.password), `${u.username} over SMB`).to.equal('');
    }
    expect(sftpOk(kim.username, 'kim new password 2')).to.equal(false);
    expect(smbFailure(kim.username, 'kim new password 2')).to.include('NT_STATUS_LOGON_FAILURE');
  });
});
