import { readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import type { UpdateStatus } from '../../shared/src/api/updates/updates.ts';
import { debianArchitecture } from '../../daemon/src/areas/updates/signed-release.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { bundleOf, buildDeb, indexFor, serveFolder, TestSigner, writeRelease } from '../helpers/update-channel.ts';
import { UpdateRoot } from './update-root-fixture.ts';
import { waitJob, zfsGet } from './zfs-fixture.ts';

/**
 * Updates against a Debian root on a ZFS dataset that stands in for the box (update-root-fixture).
 * The box's package is a tiny `cellar` built with dpkg-deb; a local apt archive labelled
 * Debian-Security carries a distribution update. Needs root, zfs-fuse and mmdebstrap.
 */
describe('updates on a Debian root on ZFS: check, install as a job, a failing maintainer script, restore', function () {
  this.timeout(15 * 60 * 1000);
  const arch = debianArchitecture();
  let r: UpdateRoot;
  let dataset: string;
  let signer: TestSigner;
  let channel: { url: string; server: Server } | null = null;
  let box: TestDaemon | null = null;
  let admin: TestClient;
  const restarts: (string | undefined)[] = [];

  const installed = (pkg: string) => r.installed(pkg);
  const marker = () => readFileSync(path.join(r.root, 'usr/share/cellar/version'), 'utf8').trim();

  before(async () => {
    r = await UpdateRoot.create('upd');
    dataset = r.dataset;
    const work = r.disks.work;
    const build = path.join(work, 'build');
    signer = new TestSigner(work);
    // The box's package at 1.0 and the distribution's tool at 1.0 are installed; 1.1 of each is offered.
    r.dpkgInstall([buildDeb(build, { name: 'cellar', version: '1.0' }), buildDeb(build, { name: 'cellar-test-tool', version: '1.0' })]);
    r.archives([
      { name: 'security', label: 'Debian-Security', suite: 'bookworm-security', debs: [buildDeb(build, { name: 'cellar-test-tool', version: '1.1' })] },
    ]);
    const box11 = buildDeb(build, { name: 'cellar', version: '1.1' });
    writeRelease(path.join(work, 'channels/stable'), signer, indexFor('1.1', [{ file: box11, architecture: 'all' }]), [box11]);
    channel = await serveFolder(path.join(work, 'channels'));

    box = await startTestDaemon(
      { trustedKeysFile: signer.keyFile },
      { updates: { apply: true, root: r.root, systemDatasets: [dataset], channelUrl: channel.url }, restart: (reason) => void restarts.push(reason) },
    );
    admin = await box.signIn();
  });
  after(async () => {
    await box?.close();
    channel?.server.close();
    await r?.cleanup();
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
    const dir = path.join(r.disks.work, 'bad');
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

  it("keeps apt's failure as the check's error, with the channel's version still listed", async () => {
    writeFileSync(path.join(r.root, 'etc/apt/sources.list'), 'deb [trusted=yes] file:/srv/missing ./\n');
    const status = await admin.api.updates.check();
    expect(status.lastCheck?.error?.code).to.equal('system.distribution.failed');
    expect(status.lastCheck?.available?.version).to.equal('1.1');
    expect(status.lastCheck?.distribution).to.deep.equal([]);
  });
});
