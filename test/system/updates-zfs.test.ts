import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import type { UpdateStatus } from '../../shared/src/api/updates.ts';
import { debianArchitecture } from '../../daemon/src/areas/updates/signed-release.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { bundleOf, buildDeb, indexFor, serveFolder, TestSigner, writeRelease } from '../helpers/update-channel.ts';
import { ensureZfsFuse, LoopDisks, sh, waitJob, zfsGet } from './zfs-fixture.ts';

/**
 * Updates against a Debian root that stands in for the box: made by mmdebstrap (kept in
 * /var/cache/cellar-tests, since Debian's mirror may take minutes), unpacked onto a ZFS dataset
 * on zfs-fuse that plays the system dataset. apt and dpkg run in it through chroot, never on this
 * machine. The box's package is a tiny `cellar` built with dpkg-deb; a local apt archive labelled
 * Debian-Security carries a distribution update. Needs root, zfs-fuse and mmdebstrap.
 */
describe('updates on a Debian root on ZFS: check, install as a job, a failing maintainer script, restore', function () {
  this.timeout(15 * 60 * 1000);
  const arch = debianArchitecture();
  const cache = '/var/cache/cellar-tests/bookworm-apt.tar';
  let disks: LoopDisks;
  let pool: string;
  let dataset: string;
  let root: string;
  let signer: TestSigner;
  let channel: { url: string; server: Server } | null = null;
  let box: TestDaemon | null = null;
  let admin: TestClient;
  const restarts: (string | undefined)[] = [];

  const inRoot = (args: string[]) => execFileSync('chroot', [root, ...args], { encoding: 'utf8', env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } });
  const installed = (pkg: string) => inRoot(['dpkg-query', '-W', '-f', '${Version}', pkg]);
  const marker = () => readFileSync(path.join(root, 'usr/share/cellar/version'), 'utf8').trim();

  /** A flat apt archive in the root, labelled like Debian's security archive, holding `debs`. */
  const archive = (debs: string[]) => {
    const dir = path.join(root, 'srv/repo');
    mkdirSync(dir, { recursive: true });
    for (const deb of debs) writeFileSync(path.join(dir, path.basename(deb)), readFileSync(deb));
    const packages = execFileSync('dpkg-scanpackages', ['-m', '.', '/dev/null'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    writeFileSync(path.join(dir, 'Packages'), packages);
    const sum = createHash('sha256').update(packages).digest('hex');
    writeFileSync(
      path.join(dir, 'Release'),
      `Origin: Debian\nLabel: Debian-Security\nSuite: bookworm-security\nCodename: bookworm-security\nDate: Wed, 25 Nov 2026 00:00:00 UTC\nSHA256:\n ${sum} ${Buffer.byteLength(packages)} Packages\n`,
    );
  };

  before(async () => {
    if (process.getuid?.() !== 0) throw new Error('the updates system test needs root (zfs-fuse, chroot)');
    await ensureZfsFuse();
    if (!existsSync(cache)) {
      mkdirSync(path.dirname(cache), { recursive: true });
      execFileSync('mmdebstrap', ['--variant=apt', '--quiet', 'bookworm', `${cache}.part`], { stdio: 'ignore', timeout: 10 * 60_000 });
      execFileSync('mv', [`${cache}.part`, cache]);
    }
    disks = new LoopDisks(`upd${process.pid}`);
    disks.add(1, '1G');
    pool = `${disks.prefix}a`;
    disks.pools.add(pool);
    sh(['zpool', 'create', '-m', path.join(disks.work, 'mnt', pool), pool, disks.loops[0]!]);
    dataset = `${pool}/ROOT`;
    sh(['zfs', 'create', '-o', 'compression=on', dataset]);
    root = path.join(disks.work, 'mnt', pool, 'ROOT');
    execFileSync('tar', ['-xf', cache, '-C', root], { stdio: 'ignore' });

    const build = path.join(disks.work, 'build');
    signer = new TestSigner(disks.work);
    // The box's package at 1.0 and the distribution's tool at 1.0 are installed; 1.1 of each is offered.
    const box10 = buildDeb(build, { name: 'cellar', version: '1.0' });
    const tool10 = buildDeb(build, { name: 'cellar-test-tool', version: '1.0' });
    for (const deb of [box10, tool10]) {
      writeFileSync(path.join(root, 'tmp', path.basename(deb)), readFileSync(deb));
      inRoot(['dpkg', '-i', `/tmp/${path.basename(deb)}`]);
    }
    archive([buildDeb(build, { name: 'cellar-test-tool', version: '1.1' })]);
    rmSync(path.join(root, 'etc/apt/sources.list.d'), { recursive: true, force: true });
    writeFileSync(path.join(root, 'etc/apt/sources.list'), 'deb [trusted=yes] file:/srv/repo ./\n');
    const box11 = buildDeb(build, { name: 'cellar', version: '1.1' });
    writeRelease(path.join(disks.work, 'channels/stable'), signer, indexFor('1.1', [{ file: box11, architecture: 'all' }]), [box11]);
    channel = await serveFolder(path.join(disks.work, 'channels'));

    box = await startTestDaemon(
      { trustedKeysFile: signer.keyFile },
      { updates: { apply: true, root, systemDatasets: [dataset], channelUrl: channel.url }, restart: (reason) => void restarts.push(reason) },
    );
    admin = await box.signIn();
  });
  after(async () => {
    await box?.close();
    channel?.server.close();
    await disks?.cleanup();
  });

  const waitRestarts = async (count: number) => {
    for (let i = 0; i < 50 && restarts.length < count; i++) await new Promise((r) => setTimeout(r, 100));
  };

  it('reports the installed package, the system dataset, and that updates apply', async () => {
    const status = await admin.api.updates.status();
    expect(status).to.deep.include({ applies: true, notApplicable: null, architecture: arch, systemDatasets: [dataset], snapshots: [] });
    expect(status.installed.version).to.equal('1.0');
  });

  it("check lists the channel's version and the distribution's security update, and installs nothing", async () => {
    const status = await admin.api.updates.check();
    expect(status.lastCheck?.error).to.equal(null);
    expect(status.lastCheck?.available?.version).to.equal('1.1');
    expect(status.lastCheck?.distribution).to.deep.equal([{ name: 'cellar-test-tool', from: '1.0', to: '1.1', security: true }]);
    expect(installed('cellar')).to.equal('1.0');
    expect(installed('cellar-test-tool')).to.equal('1.0');
  });

  let first: string;
  it('installs both as a job after a held snapshot, records it, and restarts for the new package', async () => {
    const job = await waitJob(admin, await admin.api.updates.install({ body: { box: 'channel', distribution: true } }));
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    expect(installed('cellar')).to.equal('1.1');
    expect(installed('cellar-test-tool')).to.equal('1.1');
    const status = await admin.api.updates.status();
    const entry = status.history[0]!;
    expect(entry).to.deep.include({
      kind: 'install',
      state: 'succeeded',
      fromVersion: '1.0',
      toVersion: '1.1',
      distributionPackages: 1,
      returned: false,
      error: null,
    });
    first = entry.snapshot!;
    expect(first).to.match(/^service-update-\d{8}T\d{6}Z$/);
    expect(status.snapshots).to.deep.equal([{ name: first, createdAt: status.snapshots[0]!.createdAt, datasets: [dataset], held: true }]);
    expect(zfsGet('userrefs', `${dataset}@${first}`)).to.equal('1');
    expect(zfsGet('cellar:kind', `${dataset}@${first}`)).to.equal('update');
    expect(status.running).to.equal(null);
    expect(status.lastCheck?.available).to.equal(null);
    await waitRestarts(1);
    expect(restarts).to.deep.equal(['package']);
  });

  it('returns to the snapshot when a maintainer script fails, and records it', async () => {
    await new Promise((r) => setTimeout(r, 1100)); // snapshots are named by the second
    const dir = path.join(disks.work, 'bad');
    const deb = buildDeb(dir, { name: 'cellar', version: '1.2', postinst: 'echo broken >&2; exit 1' });
    writeRelease(path.join(dir, 'release'), signer, indexFor('1.2', [{ file: deb, architecture: 'all' }]), [deb]);
    const uploaded: UpdateStatus = await admin.api.updates.upload({ body: new Uint8Array(bundleOf(path.join(dir, 'release'), path.join(dir, 'b.tar'))) });
    expect(uploaded.upload?.version).to.equal('1.2');
    const job = await waitJob(admin, await admin.api.updates.install({ body: { box: 'upload', distribution: false } }));
    expect(job.state).to.equal('failed');
    expect(job.error?.code).to.equal('system.update.failed');
    expect(job.error?.params).to.deep.equal({ step: 'box', returned: true });
    // dpkg's database and the files are those of before the attempt.
    expect(installed('cellar')).to.equal('1.1');
    expect(marker()).to.equal('1.1');
    const status = await admin.api.updates.status();
    expect(status.history.map((h) => [h.kind, h.state])).to.deep.equal([
      ['install', 'restored'],
      ['install', 'succeeded'],
    ]);
    expect(status.history[0]).to.deep.include({ fromVersion: '1.1', toVersion: null, returned: true });
    expect(status.history[0]!.error).to.match(/^box: /);
    expect(status.snapshots.map((s) => s.name)).to.deep.equal([first, status.history[0]!.snapshot]);
    expect(status.snapshots.every((s) => s.held)).to.equal(true);
    expect(restarts).to.deep.equal(['package']);
  });

  it('restores the snapshot before the first update: packages back at 1.0, later snapshots gone, a restart', async () => {
    const job = await waitJob(admin, await admin.api.updates.restore({ params: { name: first } }));
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    expect(installed('cellar')).to.equal('1.0');
    expect(installed('cellar-test-tool')).to.equal('1.0');
    expect(marker()).to.equal('1.0');
    const status = await admin.api.updates.status();
    expect(status.history[0]).to.deep.include({ kind: 'restore', state: 'succeeded', snapshot: first, fromVersion: '1.1', toVersion: '1.0' });
    expect(status.snapshots.map((s) => s.name)).to.deep.equal([first]);
    await waitRestarts(2);
    expect(restarts).to.deep.equal(['package', 'snapshot']);
  });
});
