import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import type { UpdateStatus } from '../../shared/src/api/updates/updates.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { buildDeb, indexFor, serveFolder, TestSigner, writeRelease } from '../helpers/update-channel.ts';
import { UpdateRoot } from './update-root-fixture.ts';
import { waitJob, zfsGet } from './zfs-fixture.ts';

const minute = 60_000;

/**
 * The daily check (daily-check.ts) on a Debian root on ZFS (update-root-fixture), driven by a
 * moved clock and the scheduler's runNow instead of the real time. Two archives stand in for
 * Debian's: one labelled Debian-Security (its updates are security updates) and a plain one. The
 * box's zone is Auckland, so a check that went by UTC would run at other times. Needs root,
 * zfs-fuse and mmdebstrap.
 */
describe("updates: the daily check at the check time in the box's zone, with and without automatic security updates", function () {
  this.timeout(15 * 60 * 1000);
  let r: UpdateRoot;
  let build: string;
  let channel: { url: string; server: Server } | null = null;
  let box: TestDaemon | null = null;
  let admin: TestClient;
  // The daemon's clock starts at 2026-11-30T02:00Z (15:00 in Auckland, UTC+13); tests move it.
  let now = Date.parse('2026-11-30T02:00:00Z');

  const archives = (security: string[], plain: string[]) =>
    r.archives([
      {
        name: 'security',
        label: 'Debian-Security',
        suite: 'bookworm-security',
        debs: security.map((v) => buildDeb(build, { name: 'cellar-test-tool', version: v })),
      },
      { name: 'main', label: 'Debian', suite: 'bookworm', debs: plain.map((v) => buildDeb(build, { name: 'cellar-test-other', version: v })) },
    ]);

  /** Moves the clock to `iso` and runs the daily check there to its end (after any run the scheduler's tick began). */
  const dailyAt = async (iso: string): Promise<UpdateStatus> => {
    now = Date.parse(iso);
    while (!(await box!.daemon.scheduler.runNow('updates.daily'))) await new Promise((res) => setTimeout(res, 100));
    return admin.api.updates.status();
  };

  before(async () => {
    r = await UpdateRoot.create('updd');
    build = path.join(r.disks.work, 'build');
    const signer = new TestSigner(r.disks.work);
    r.dpkgInstall(['cellar', 'cellar-test-tool', 'cellar-test-other'].map((name) => buildDeb(build, { name, version: '1.0' })));
    archives(['1.1'], ['1.1']);
    const box11 = buildDeb(build, { name: 'cellar', version: '1.1' });
    writeRelease(path.join(r.disks.work, 'channels/stable'), signer, indexFor('1.1', [{ file: box11, architecture: 'all' }]), [box11]);
    channel = await serveFolder(path.join(r.disks.work, 'channels'));
    box = await startTestDaemon(
      { trustedKeysFile: signer.keyFile },
      {
        clock: { now: () => now },
        updates: { apply: true, root: r.root, systemDatasets: [r.dataset], channelUrl: channel.url, checkDelayMs: 10 * minute },
      },
    );
    admin = await box.signIn();
    await admin.api.systemTime.setTime({ body: { timeZone: 'Pacific/Auckland', servers: [] } });
    await admin.api.updates.setSettings({ body: { channel: 'stable', checkTime: '03:00', automaticSecurity: false } });
    // A check by hand at 02:00Z: the daily check of UTC 03:00 would be due after it, Auckland's not yet.
    expect((await admin.api.updates.check()).lastCheck?.at).to.equal('2026-11-30T02:00:00.000Z');
  });
  after(async () => {
    await box?.close();
    channel?.server.close();
    await r?.cleanup();
  });

  it('waits for the check time plus the delay in the zone, then checks the channel and apt once that day and installs nothing', async () => {
    // 02:55 in Auckland: past 03:00 UTC, before 03:10 in Auckland.
    let status = await dailyAt('2026-11-30T13:55:00Z');
    expect(status.lastCheck?.at).to.equal('2026-11-30T02:00:00.000Z');
    status = await dailyAt('2026-11-30T14:05:00Z');
    expect(status.lastCheck?.at, 'the delay is not over').to.equal('2026-11-30T02:00:00.000Z');

    status = await dailyAt('2026-11-30T14:15:00Z');
    expect(status.lastCheck).to.deep.include({ at: '2026-11-30T14:15:00.000Z', error: null });
    expect(status.lastCheck?.available?.version).to.equal('1.1');
    expect(status.lastCheck?.distribution).to.have.deep.members([
      { name: 'cellar-test-tool', from: '1.0', to: '1.1', security: true },
      { name: 'cellar-test-other', from: '1.0', to: '1.1', security: false },
    ]);
    expect(status.running).to.equal(null);
    expect(status.history).to.deep.equal([]);
    expect(status.snapshots).to.deep.equal([]);
    for (const pkg of ['cellar', 'cellar-test-tool', 'cellar-test-other']) expect(r.installed(pkg), pkg).to.equal('1.0');

    status = await dailyAt('2026-11-30T20:00:00Z');
    expect(status.lastCheck?.at, 'once a day').to.equal('2026-11-30T14:15:00.000Z');
  });

  it("with automatic security updates on, installs only the security updates as an install job with a held snapshot and a history entry; the box's package waits", async () => {
    await admin.api.updates.setSettings({ body: { channel: 'stable', checkTime: '03:00', automaticSecurity: true } });
    const checked = await dailyAt('2026-12-01T14:15:00Z');
    expect(checked.lastCheck?.at).to.equal('2026-12-01T14:15:00.000Z');
    expect(checked.running?.kind).to.equal('install');
    const job = await waitJob(admin, await admin.api.jobs.get({ params: { id: checked.running!.jobId } }));
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    expect(job).to.deep.include({ kind: 'system.updates.install', userId: null });
    expect(r.installed('cellar-test-tool')).to.equal('1.1');
    expect(r.installed('cellar-test-other')).to.equal('1.0');
    expect(r.installed('cellar')).to.equal('1.0');

    const status = await admin.api.updates.status();
    expect(status.history).to.have.length(1);
    expect(status.history[0]).to.deep.include({
      kind: 'install',
      state: 'succeeded',
      fromVersion: '1.0',
      toVersion: '1.0',
      distributionPackages: 1,
      snapshot: 'service-update-20261201T141500Z',
      returned: false,
      jobId: job.id,
    });
    expect(status.snapshots.map((s) => [s.name, s.held])).to.deep.equal([['service-update-20261201T141500Z', true]]);
    expect(zfsGet('userrefs', `${r.dataset}@service-update-20261201T141500Z`)).to.equal('1');
    // What was not installed stays listed: the box's new version and the plain update.
    expect(status.lastCheck?.available?.version).to.equal('1.1');
    expect(status.lastCheck?.distribution).to.deep.equal([{ name: 'cellar-test-other', from: '1.0', to: '1.1', security: false }]);
  });

  it("still installs a new security update when the project's channel cannot be read, and keeps that as the check's error", async () => {
    channel!.server.close();
    archives(['1.2'], ['1.1']);
    const checked = await dailyAt('2026-12-02T14:15:00Z');
    expect(checked.lastCheck?.error?.code).to.equal('system.channel.unreachable');
    expect(checked.lastCheck?.distribution).to.deep.include({ name: 'cellar-test-tool', from: '1.1', to: '1.2', security: true });
    const job = await waitJob(admin, await admin.api.jobs.get({ params: { id: checked.running!.jobId } }));
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    expect(r.installed('cellar-test-tool')).to.equal('1.2');
    expect(r.installed('cellar-test-other')).to.equal('1.0');
    const status = await admin.api.updates.status();
    expect(status.history.map((h) => [h.state, h.snapshot])).to.deep.equal([
      ['succeeded', 'service-update-20261202T141500Z'],
      ['succeeded', 'service-update-20261201T141500Z'],
    ]);
    // The newest snapshot is held until the next good update; the older one's hold was released.
    expect(status.snapshots.map((s) => [s.name, s.held])).to.deep.equal([
      ['service-update-20261201T141500Z', false],
      ['service-update-20261202T141500Z', true],
    ]);
  });
});
