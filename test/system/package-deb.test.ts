import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { packageDeb } from '../../build/scripts/package-deb.js';
import { freePort } from '../../bench/lib/free-port.ts';
import { httpsClient } from '../helpers/https-client.ts';

/**
 * The box's Debian package, installed with its dependencies from Debian into a clean root made by
 * mmdebstrap, and the daemon started from the installed files inside it (chroot, as root): the
 * first-run setup then creates a real account in that root. Needs root, mmdebstrap and Debian's
 * package mirror (as the machines that run .ci/run have).
 */
describe('the Debian package', function () {
  this.timeout(20 * 60 * 1000);
  let work: string;
  let deb: string;
  let root: string;
  let daemon: ChildProcess | null = null;
  let url: string;
  let box: ReturnType<typeof httpsClient>;

  const inRoot = (args: string[], env: Record<string, string> = {}) =>
    execFileSync('chroot', [root, ...args], { encoding: 'utf8', env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', ...env } });

  before(async function () {
    if (process.getuid?.() !== 0) throw new Error('the package test installs into a chroot and needs root');
    for (const tool of ['mmdebstrap', 'dpkg-deb', 'systemd-analyze']) {
      try {
        execFileSync('sh', ['-c', 'command -v "$0"', tool], { stdio: 'ignore' });
      } catch {
        throw new Error(`${tool} is missing: apt-get install -y --no-install-recommends mmdebstrap systemd`);
      }
    }
    work = mkdtempSync(path.join(tmpdir(), 'cellar-package-'));
    deb = await packageDeb({ outDir: work });
    root = path.join(work, 'root');
    // The hook mounts the folder of a local .deb inside the chroot, so apt resolves its Depends from
    // the mirror; systemd is there as on every box (the unit is verified against it).
    execFileSync(
      'mmdebstrap',
      ['--variant=essential', '--quiet', '--hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount', `--include=systemd,${deb}`, 'bookworm', root],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    execFileSync('mount', ['-t', 'proc', 'proc', path.join(root, 'proc')]);
  });

  after(() => {
    daemon?.kill('SIGKILL');
    if (root && existsSync(path.join(root, 'proc/self'))) execFileSync('umount', ['-l', path.join(root, 'proc')]);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is named for version and architecture, depends on the host tools and carries no development modules', () => {
    const arch = execFileSync('dpkg', ['--print-architecture'], { encoding: 'utf8' }).trim();
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    expect(path.basename(deb)).to.equal(`cellar_${version}_${arch}.deb`);
    const depends = execFileSync('dpkg-deb', ['-f', deb, 'Depends'], { encoding: 'utf8' });
    for (const pkg of ['samba', 'openssh-server', 'acl', 'nginx', 'nftables', 'chrony', 'zfsutils-linux | zfs-fuse']) expect(depends).to.include(pkg);
    const modules = path.join(root, 'usr/lib/cellar/node_modules');
    for (const prod of ['express', 'sqlite3', 'sharp', 'node-forge']) expect(existsSync(path.join(modules, prod)), prod).to.equal(true);
    for (const dev of ['mocha', 'vite', 'typescript', 'eslint', 'playwright-core', 'esbuild', 'tsx'])
      expect(existsSync(path.join(modules, dev)), dev).to.equal(false);
  });

  it('installs the daemon, the web desktop, its own Node, the unit and the configuration; the data directory is root-only', () => {
    for (const file of [
      'usr/lib/cellar/daemon/dist/main.js',
      'usr/lib/cellar/daemon/dist/user-fs-worker.js',
      'usr/lib/cellar/daemon/public/index.html',
      'lib/systemd/system/cellar.service',
      'etc/cellar/cellar.json',
    ]) {
      expect(existsSync(path.join(root, file)), file).to.equal(true);
    }
    expect(inRoot(['/usr/lib/cellar/node/bin/node', '--version']).trim()).to.equal(process.version);
    // git's GIT_SSH program for store catalogs ships with the code, executable, so the data directory may be noexec.
    expect(statSync(path.join(root, 'usr/lib/cellar/daemon/bin/git-ssh')).mode & 0o777).to.equal(0o755);
    expect(statSync(path.join(root, 'usr/lib/cellar/daemon/bin/listen-pid')).mode & 0o777).to.equal(0o755);
    expect(statSync(path.join(root, 'var/lib/cellar')).mode & 0o777).to.equal(0o700);
    // Enabled without a running systemd: postinst linked the unit into multi-user.target.
    // The link is absolute inside the root, so read it rather than follow it from outside.
    expect(readlinkSync(path.join(root, 'etc/systemd/system/multi-user.target.wants/cellar.service'))).to.equal('/lib/systemd/system/cellar.service');
  });

  it('has a unit systemd accepts', () => {
    // --root resolves ExecStart inside the installed root; a bad directive or a missing program fails.
    execFileSync('systemd-analyze', ['verify', `--root=${root}`, '/lib/systemd/system/cellar.service'], { stdio: ['ignore', 'pipe', 'pipe'] });
  });

  it('starts from the installed files as a box over HTTPS, answers health, and asks for the one-time setup code', async () => {
    const port = await freePort();
    url = `https://127.0.0.1:${port}`;
    // The unit's command and environment, on a loopback port for the test.
    daemon = spawn('chroot', [root, '/usr/lib/cellar/node/bin/node', '/usr/lib/cellar/daemon/dist/main.js'], {
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', BOX_MODE: 'box', BOX_CONFIG: '/etc/cellar/cellar.json', BOX_HOST: '127.0.0.1', BOX_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    daemon.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    daemon.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // As a person does: the box's root first (its fingerprint is on the page), then trust only it.
    const rootPem = await waitFor(
      () => fetchInsecure(`${url}/api/system/tls/root-ca.crt`),
      () => output,
    );
    box = httpsClient(url, rootPem);
    expect(JSON.parse((await box.send('GET', '/api/health')).body)).to.include({ status: 'ok' });
    const setup = JSON.parse((await box.send('GET', '/api/setup')).body) as { mode: string; setupCode: boolean; firstRun: boolean };
    expect(setup).to.include({ mode: 'box', setupCode: true, firstRun: true });
    const codeFile = path.join(root, 'var/lib/cellar/setup-code');
    expect(statSync(codeFile).mode & 0o777).to.equal(0o600);
    const code = readFileSync(codeFile, 'utf8').trim();
    expect(output).to.include(code);
  });

  it('creates the first administrator as a real account of the box with the code, then signs in', async () => {
    const code = readFileSync(path.join(root, 'var/lib/cellar/setup-code'), 'utf8').trim();
    const body = { code, username: 'owner', password: 'a long enough passphrase', boxName: 'Cellar test box', language: 'de', region: 'AT' };
    expect((await box.send('POST', '/api/setup', { ...body, code: 'AAAAA-AAAAA' })).status).to.equal(403);
    const done = await box.send('POST', '/api/setup', body);
    expect(done.status, done.body).to.equal(201);
    expect(inRoot(['getent', 'passwd', 'owner'])).to.match(/^owner:x:\d+:/);
    expect((await box.signIn('owner', body.password)).status).to.equal(200);
    expect(JSON.parse((await box.send('GET', '/api/setup')).body)).to.include({ setupCode: false, boxName: 'Cellar test box', language: 'de' });
    const again = await box.send('POST', '/api/setup', { ...body, username: 'second' });
    expect((JSON.parse(again.body) as { code: string }).code).to.equal('setup.done');
  });

  it('keeps the data directory on remove and on a purge nobody answered; deletes it on a purge that says so', async () => {
    daemon?.kill('SIGTERM');
    daemon = null;
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    inRoot(['dpkg', '--remove', 'cellar'], env);
    expect(existsSync(path.join(root, 'usr/lib/cellar/daemon/dist/main.js'))).to.equal(false);
    expect(existsSync(path.join(root, 'var/lib/cellar/cellar.sqlite'))).to.equal(true);
    inRoot(['dpkg', '--purge', 'cellar'], env);
    expect(existsSync(path.join(root, 'var/lib/cellar/cellar.sqlite'))).to.equal(true);
    expect(existsSync(path.join(root, 'etc/cellar/cellar.json'))).to.equal(false);

    execFileSync('cp', [deb, path.join(root, 'tmp/cellar.deb')]);
    inRoot(['dpkg', '-i', '/tmp/cellar.deb'], env);
    execFileSync('chroot', [root, 'debconf-set-selections'], {
      input: 'cellar cellar/purge-data boolean true\n',
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
    });
    inRoot(['dpkg', '--purge', 'cellar'], env);
    expect(existsSync(path.join(root, 'var/lib/cellar'))).to.equal(false);
  });
});

/** The root certificate, fetched before it is trusted (the one request that does not check the box). */
function fetchInsecure(address: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(address, { rejectUnauthorized: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

async function waitFor<T>(attempt: () => Promise<T>, output: () => string): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`the installed daemon did not answer:\n${output()}`, { cause: err });
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
