import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../bench/lib/free-port.ts';
import { gitSshProgram } from '../../daemon/src/host/git/git-client.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { appFolder, catalogBranch, ended } from '../helpers/store-catalogs.ts';

const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8', timeout: 20_000 });

/**
 * A private catalog over SSH for real: a second sshd on a loopback port, a test account whose
 * shell is git-shell, a bare catalog repository built by build/scripts/build-catalog.ts, and the
 * box's own deploy key in that account's authorized_keys.
 */
describe('system: a private store catalog over SSH (sshd, git-shell, deploy key, pinned host key)', function () {
  this.timeout(180_000);
  const user = `ctest${randomBytes(3).toString('hex')}`;
  const home = `/home/${user}`;
  const repo = path.join(home, 'catalog.git');
  // Not under /tmp: sshd's StrictModes wants the key files' folders owned by root or the account.
  let work: string;
  let port: number;
  let sshd: ChildProcess | null = null;
  let sshdLog = '';
  let box: TestDaemon;
  let admin: TestClient;
  let dataDir: string | null = null;

  const hostKey = () => path.join(work, 'host_ed25519');
  const fingerprint = () => /SHA256:\S+/.exec(run('ssh-keygen', ['-l', '-f', `${hostKey()}.pub`]).stdout)?.[0];

  async function startSshd(): Promise<void> {
    rmSync(hostKey(), { force: true });
    rmSync(`${hostKey()}.pub`, { force: true });
    expect(run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey()]).status).to.equal(0);
    const config = path.join(work, 'sshd_config');
    writeFileSync(
      config,
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${hostKey()}`,
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
    sshd = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    sshd.stderr?.on('data', (d: Buffer) => (sshdLog += d.toString()));
    for (let i = 0; !/Server listening/.test(sshdLog); i++) {
      if (sshd.exitCode !== null || i > 200) throw new Error(`sshd did not start: ${sshdLog}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async function stopSshd(): Promise<void> {
    if (!sshd || sshd.exitCode !== null) return;
    const exited = new Promise((r) => sshd?.once('exit', r));
    sshd.kill('SIGTERM');
    await exited;
  }

  const catalog = async () => (await admin.api.store.state()).catalogs.find((c) => c.url.startsWith('ssh://'))!;
  const sync = async (key: number) => ended(admin, (await admin.api.store.sync({ params: { key } })).id, 60_000);

  async function buildBareCatalog(versions: string[]): Promise<void> {
    const tree = path.join(work, 'tree');
    await catalogBranch(work, 'tree', 'catalog', {
      name: 'Private',
      apps: [{ versions: versions.map((version) => ({ folder: appFolder(work, { id: 'org.example.secret', version, description: 'Kept private' }) })) }],
    });
    rmSync(repo, { recursive: true, force: true });
    expect(run('git', ['clone', '--quiet', '--bare', '--branch', 'catalog', tree, repo]).status).to.equal(0);
    expect(run('chown', ['-R', `${user}:${user}`, repo]).status).to.equal(0);
  }

  before(async () => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    for (const tool of ['/usr/sbin/sshd', 'git-shell', 'useradd', 'ssh-keygen']) expect(run('which', [tool]).status, `${tool} is installed`).to.equal(0);
    work = mkdtempSync('/run/cellar-store-ssh-');
    const gitShell = run('which', ['git-shell']).stdout.trim();
    expect(run('useradd', ['--create-home', '--home-dir', home, '--shell', gitShell, '--user-group', user]).status).to.equal(0);
    // A locked password ("!") makes sshd refuse the account even for keys; "*" has no password and is not locked.
    expect(run('usermod', ['-p', '*', user]).status).to.equal(0);
    mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    port = await freePort();
    await buildBareCatalog(['1.0.0']);
    await startSshd();
    // The data directory on a file system mounted noexec, as a box may have it: nothing the fetch runs may live there.
    dataDir = path.join(work, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    expect(run('mount', ['-t', 'tmpfs', '-o', 'noexec,nosuid,nodev,mode=0700,size=64m', 'cellar-store-noexec', dataDir]).status).to.equal(0);
    box = await startTestDaemon({ dataDir }, { store: { projectCatalogs: [], fetchTimeoutMs: 30_000 } });
    admin = await box.signIn();
  });

  after(async () => {
    await box?.close({ keepData: true });
    if (dataDir) run('umount', [dataDir]);
    await stopSshd();
    run('userdel', ['--remove', user]);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('adds the catalog over ssh://, fetches it once its deploy key is authorized, and pins and shows the host key', async () => {
    const url = `ssh://${user}@127.0.0.1:${port}${repo}`;
    const info = await admin.api.store.addCatalog({ body: { url } });
    expect(info).to.include({ name: 'catalog', verified: false, builtIn: false });
    expect(info.deployKey).to.match(/^ssh-ed25519 [A-Za-z0-9+/=]+ cellar-store-\d+$/);
    // The fetch started by the add finds the key not yet authorized.
    const first = (await admin.api.jobs.list()).find((j) => j.kind === 'store.sync')!;
    const refused = await ended(admin, first.id, 60_000);
    expect(refused.error?.code).to.equal('store.fetch.failed');
    expect((await catalog()).state).to.equal('failed');

    const sshDir = path.join(home, '.ssh');
    mkdirSync(sshDir, { recursive: true });
    writeFileSync(path.join(sshDir, 'authorized_keys'), `${info.deployKey}\n`);
    chmodSync(sshDir, 0o700);
    chmodSync(path.join(sshDir, 'authorized_keys'), 0o600);
    expect(run('chown', ['-R', `${user}:${user}`, sshDir]).status).to.equal(0);

    const job = await sync(info.key);
    expect(job.state, `${JSON.stringify(job.error)}\n${sshdLog}`).to.equal('succeeded');
    const shown = await catalog();
    expect(shown).to.include({ state: 'ok', apps: 1, lastError: null });
    expect(shown.hostKey).to.be.a('string').and.contain(fingerprint()!);
    const apps = (await admin.api.store.apps({ query: { catalog: shown.id } })).apps;
    expect(apps.map((a) => [a.appId, a.version, a.verified])).to.deep.equal([['org.example.secret', '1.0.0', false]]);
    // git ran ssh through the box's GIT_SSH program (no shell), which gives ssh the catalog's own configuration;
    // the program ships with the daemon, and the noexec data directory holds only what ssh reads.
    expect(readFileSync('/proc/self/mounts', 'utf8')).to.match(new RegExp(`^cellar-store-noexec ${dataDir} tmpfs \\S*noexec`, 'm'));
    const keyFolder = path.join(box.dataDir, 'store', 'catalogs', String(info.key), 'ssh');
    expect(readdirSync(keyFolder).sort()).to.deep.equal(['deploy_key', 'deploy_key.pub', 'known_hosts', 'ssh_config']);
    expect(statSync(gitSshProgram).mode & 0o111, 'the shipped GIT_SSH program is executable').to.not.equal(0);
    // The account is git-shell's: the box could read the repository and nothing else.
    expect(readFileSync('/etc/passwd', 'utf8')).to.match(new RegExp(`^${user}:.*:/usr/bin/git-shell$`, 'm'));
  });

  it('refuses a server whose host key changed with a clear status, and keeps the last verified copy', async () => {
    const before = await catalog();
    const pinned = fingerprint()!;
    await buildBareCatalog(['1.0.0', '1.1.0']);
    await stopSshd();
    await startSshd();
    expect(fingerprint()).not.to.equal(pinned);
    const job = await sync(before.key);
    expect(job.state).to.equal('failed');
    expect(job.error?.code).to.equal('store.fetch.host_key_changed');
    expect(String(job.error?.params?.pinned)).to.contain(pinned);
    const after = await catalog();
    expect(after).to.include({ state: 'failed', commit: before.commit, apps: 1 });
    expect(after.lastError?.code).to.equal('store.fetch.host_key_changed');
    expect(after.hostKey).to.contain(pinned);
    // The copy in use is still the one verified before: its apps stay browsable at their old version.
    expect((await admin.api.store.apps({ query: { catalog: after.id } })).apps.map((a) => a.version)).to.deep.equal(['1.0.0']);
  });
});
