import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { ensureZfsFuse, LoopDisks, sh, waitJob } from './zfs-fixture.ts';

// Real ZFS: Debian's zfs-fuse on loop devices of sparse files, as root. Everything made here
// carries the test prefix and is destroyed in `after`, also when a test failed.
const disks = new LoopDisks(`cellarst${process.pid}`);
const prefix = disks.prefix;
const poolName = `${prefix}p`;

describe('storage on zfs-fuse', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let admin: TestClient;
  let now = Date.UTC(2026, 10, 23, 10, 15);
  const loopName = (i: number) => disks.name(i);
  const loops = disks.loops;
  const work = disks.work;

  before(async () => {
    await ensureZfsFuse();
    disks.pools.add(poolName);
    disks.add(3);
    box = await startTestDaemon(
      {},
      {
        clock: { now: () => now },
        storage: {
          apply: true,
          includeLoopDevices: true,
          minDiskBytes: 64 * 1024 * 1024,
          mountRoot: path.join(work, 'mnt'),
          importDirs: ['/dev'],
          scrubPollMs: 200,
        },
      },
    );
    admin = await box.signIn();
  });

  after(async () => {
    await box?.close();
    await disks.cleanup();
  });

  it('shows the new loop disks as usable', async () => {
    const { disks } = await admin.api.storage.disks();
    for (let i = 0; i < 3; i++) expect(disks.find((d) => d.name === loopName(i))).to.deep.include({ usable: true, reasons: [] });
  });

  it('creates a mirror pool through a previewed plan run as a job', async () => {
    const preview = await admin.api.storage.createPlan({ body: { kind: 'pool.create', pool: poolName, layout: 'mirror', disks: [loopName(0), loopName(1)] } });
    expect(preview.commands).to.deep.equal([['zpool', 'create', '-m', path.join(work, 'mnt', poolName), poolName, 'mirror', loops[0], loops[1]]]);
    expect(preview.disks).to.deep.equal([loopName(0), loopName(1)]);
    expect(Date.parse(preview.expiresAt) - now).to.equal(10 * 60 * 1000);
    const job = await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: preview.planId } }));
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    await expectProblem(admin.api.storage.runPlan({ params: { planId: preview.planId } }), 'storage.plan.already_run', 409);
    const { pools } = await admin.api.storage.pools();
    const pool = pools.find((p) => p.name === poolName);
    expect(pool?.health).to.equal('ONLINE');
    expect(pool?.vdevGroups[0]?.vdevs[0]?.type).to.equal('mirror');
    expect(pool?.datasets.map((d) => d.name)).to.include(poolName);
  });

  it('has the disk guard refuse a disk already in a pool, in the list and in a plan', async () => {
    const { disks } = await admin.api.storage.disks();
    const inPool = disks.find((d) => d.name === loopName(0));
    expect(inPool?.usable).to.equal(false);
    expect(inPool?.reasons.map((r) => r.reason)).to.include('inPool');
    const err = await expectProblem(
      admin.api.storage.createPlan({ body: { kind: 'pool.create', pool: `${prefix}q`, layout: 'stripe', disks: [loopName(0)] } }),
      'storage.disk.refused',
      409,
    );
    expect(err.problem.params?.disk).to.equal(loopName(0));
    const stripe = await admin.api.storage.createPlan({ body: { kind: 'pool.create', pool: `${prefix}q`, layout: 'stripe', disks: [loopName(2)] } });
    expect(stripe.warnings.map((w) => w.code)).to.deep.equal(['stripe.no_redundancy']);
    expect(stripe.warnings.map((w) => w.text).join(' ')).to.match(/no redundancy/);
    await expectProblem(
      admin.api.storage.createPlan({ body: { kind: 'pool.create', pool: `${prefix}q`, layout: 'raidz1', disks: [loopName(2)] } }),
      'storage.layout.invalid',
      400,
    );
  });

  let dataset = '';
  it('creates a share dataset through a share plan and writes files into it', async () => {
    const preview = await admin.api.storage.createSharePlan({
      body: { kind: 'share.create', pool: poolName, name: 'Family Photos', quotaBytes: 32 * 1024 * 1024 },
    });
    dataset = `${poolName}/shares/family-photos`;
    expect(preview.commands).to.deep.equal([
      ['zfs', 'create', `${poolName}/shares`],
      ['zfs', 'create', '-o', `quota=${32 * 1024 * 1024}`, dataset],
    ]);
    const job = await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: preview.planId } }));
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    const share = (await admin.api.shares.list()).find((s) => s.name === 'Family Photos');
    // The share is the dataset's `files` folder; its recycle bin lies beside it on the same dataset.
    const mountpoint = path.join(work, 'mnt', poolName, 'shares', 'family-photos');
    expect(share).to.include({ kind: 'dataset', hostPath: path.join(mountpoint, 'files') });
    // The client named no file services: a new share is offered over SMB and SFTP at once.
    expect((await admin.api.shares.details()).find((d) => d.id === share!.id)).to.include({ smbEnabled: true, sftpEnabled: true, smbEncrypt: false });
    expect(statSync(share!.hostPath!).mode & 0o777).to.equal(0o755);
    writeFileSync(path.join(share!.hostPath!, 'a.txt'), 'first');
    expect(existsSync(path.join(share!.hostPath!, 'a.txt'))).to.equal(true);

    writeFileSync(path.join(share!.hostPath!, 'unwanted.txt'), 'unwanted');
    const inode = statSync(path.join(share!.hostPath!, 'unwanted.txt')).ino;
    const deleted = await waitJob(
      admin,
      await admin.api.fileOperations.run({ body: { op: 'delete', sources: [{ shareId: share!.id, path: 'unwanted.txt' }] } }),
    );
    expect(deleted.state, JSON.stringify(deleted.error)).to.equal('succeeded');
    const bin = path.join(mountpoint, '.cellar-trash', 'files');
    const [stored] = readdirSync(bin);
    expect(readFileSync(path.join(bin, stored!), 'utf8')).to.equal('unwanted');
    expect(statSync(path.join(bin, stored!)).ino, 'a rename within the dataset').to.equal(inode);
    expect(readdirSync(share!.hostPath!, { recursive: true })).to.deep.equal(['a.txt']);
    const listing = await admin.api.files.list({ params: { shareId: share!.id }, query: {} });
    expect(listing.items.map((e) => e.name)).to.deep.equal(['a.txt']);
  });

  it('takes a manual snapshot, holds it so it cannot be destroyed, and releases only its own hold', async () => {
    const snap = await admin.api.storage.createSnapshot({ body: { dataset } });
    expect(snap.name).to.equal('service-manual-20261123T101500Z');
    expect(snap.serviceKind).to.equal('manual');
    await admin.api.storage.holdSnapshot({ body: { dataset, snapshot: snap.name } });
    await expectProblem(admin.api.storage.holdSnapshot({ body: { dataset, snapshot: snap.name } }), 'storage.snapshot.already_held', 409);
    expect((await admin.api.storage.snapshots({ query: { dataset } })).snapshots[0]?.holds).to.equal(1);
    expect(() => sh(['zfs', 'destroy', `${dataset}@${snap.name}`])).to.throw(/busy/);
    // Another tool's hold stays when the service releases its own.
    sh(['zfs', 'hold', 'othertool', `${dataset}@${snap.name}`]);
    await admin.api.storage.releaseSnapshot({ body: { dataset, snapshot: snap.name } });
    await expectProblem(admin.api.storage.releaseSnapshot({ body: { dataset, snapshot: snap.name } }), 'storage.snapshot.not_held', 409);
    expect((await admin.api.storage.snapshots({ query: { dataset } })).snapshots[0]?.holds).to.equal(1);
    sh(['zfs', 'release', 'othertool', `${dataset}@${snap.name}`]);
    await expectProblem(admin.api.storage.snapshots({ query: { dataset: `${poolName}/absent` } }), 'storage.dataset.not_found', 404);
  });

  it('prunes by an hourly schedule with a fake clock: only its own snapshots beyond keep, never held ones', async () => {
    const before = await admin.api.storage.snapshotSchedules({ query: { dataset } });
    expect(before.schedules.map((s) => [s.kind, s.enabled, s.keep])).to.deep.equal([
      ['hourly', false, 24],
      ['daily', false, 7],
      ['weekly', false, 4],
      ['monthly', false, 6],
    ]);
    await admin.api.storage.setSnapshotSchedules({ body: { dataset, schedules: [{ kind: 'hourly', enabled: true, keep: 2 }] } });
    const names: string[] = [];
    for (let h = 0; h < 4; h++) {
      await box.daemon.scheduler.runNow('storage.snapshots');
      const list = (await admin.api.storage.snapshots({ query: { dataset } })).snapshots;
      names.push(...list.filter((s) => s.serviceKind === 'hourly').map((s) => s.name));
      if (h === 0) await admin.api.storage.holdSnapshot({ body: { dataset, snapshot: 'service-hourly-20261123T100000Z' } });
      now += 3600_000;
    }
    const left = (await admin.api.storage.snapshots({ query: { dataset } })).snapshots.map((s) => s.name);
    // 13:00 and 12:00 are the newest two; 10:00 is held and stays; 11:00 is pruned; the manual one is never pruned.
    expect(names).to.include('service-hourly-20261123T110000Z');
    expect(left).to.have.members([
      'service-hourly-20261123T100000Z',
      'service-manual-20261123T101500Z',
      'service-hourly-20261123T120000Z',
      'service-hourly-20261123T130000Z',
    ]);
    // Oldest first. ZFS keeps creation times in whole seconds, and the manual snapshot may or may
    // not share its second with the hourly ones made under the fake clock; the hourly ones keep their order.
    expect(left.filter((n) => n.startsWith('service-hourly-'))).to.deep.equal([
      'service-hourly-20261123T100000Z',
      'service-hourly-20261123T120000Z',
      'service-hourly-20261123T130000Z',
    ]);
    await admin.api.storage.releaseSnapshot({ body: { dataset, snapshot: 'service-hourly-20261123T100000Z' } });
  });

  it('starts a scrub and answers a clear code for pause, which zfs-fuse cannot do', async () => {
    await admin.api.storage.startScrub({ params: { pool: poolName } });
    const err = await expectProblem(admin.api.storage.pauseScrub({ params: { pool: poolName } }), 'storage.capability.unsupported', 409);
    expect(err.problem.params).to.deep.equal({ feature: 'scrubPause' });
    const pool = (await admin.api.storage.pools()).pools.find((p) => p.name === poolName);
    expect(pool?.scan.function).to.equal('scrub');
    await expectProblem(admin.api.storage.startScrub({ params: { pool: 'absentpool' } }), 'storage.pool.not_found', 404);
  });

  it('sets a weekly scrub schedule with a next run, and runs a missed run once', async () => {
    const list = await admin.api.storage.setSchedules({ body: { scrub: [{ pool: poolName, frequency: 'weekly' }] } });
    const entry = list.scrub.find((s) => s.pool === poolName);
    expect(entry?.nextRunAt).to.equal(new Date(now + 7 * 86400_000).toISOString());
    now += 30 * 86400_000; // the daemon was "down" for a month
    // The scheduler's own tick may be running it already (the clock moved); either way it runs once.
    await box.daemon.scheduler.runNow('storage.schedules');
    let after = (await admin.api.storage.schedules()).scrub.find((s) => s.pool === poolName);
    for (let i = 0; i < 50 && after?.lastRunAt === null; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = (await admin.api.storage.schedules()).scrub.find((s) => s.pool === poolName);
    }
    expect(after?.lastRunAt).to.equal(new Date(now).toISOString());
    expect(after?.nextRunAt).to.equal(new Date(now + 7 * 86400_000).toISOString());
  });

  it('deletes the share keeping its data, exports the pool and finds it in an import scan', async () => {
    const share = (await admin.api.shares.list()).find((s) => s.name === 'Family Photos')!;
    const destroy = await admin.api.storage.createSharePlan({ body: { kind: 'share.delete', shareId: share.id, destroyData: true } });
    expect(destroy.commands).to.deep.equal([['zfs', 'destroy', '-f', '-r', dataset]]);
    expect(destroy.destroys).to.include(`${dataset}@service-manual-20261123T101500Z`);
    const keep = await admin.api.storage.createSharePlan({ body: { kind: 'share.delete', shareId: share.id, destroyData: false } });
    expect(keep.commands).to.deep.equal([]);
    expect((await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: keep.planId } }))).state).to.equal('succeeded');
    expect((await admin.api.shares.list()).some((s) => s.id === share.id)).to.equal(false);

    const exportPlan = await admin.api.storage.createPlan({ body: { kind: 'pool.export', pool: poolName } });
    expect(exportPlan.commands).to.deep.equal([['zpool', 'export', poolName]]);
    const job = await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: exportPlan.planId } }));
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    const scan = await admin.api.storage.importScan();
    const found = scan.pools.find((p) => p.name === poolName);
    expect(found).to.deep.include({ importable: true, state: 'ONLINE' });
    expect(found?.vdevGroups[0]?.vdevs[0]?.type).to.equal('mirror');
    await expectProblem(admin.api.storage.createPlan({ body: { kind: 'pool.import.readonly', pool: poolName } }), 'storage.capability.unsupported', 409);
    const importPlan = await admin.api.storage.createPlan({ body: { kind: 'pool.import', pool: poolName } });
    expect(importPlan.disks).to.deep.equal([loopName(0), loopName(1)]);
    expect((await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: importPlan.planId } }))).state).to.equal('succeeded');
  });

  it('rechecks the disks of an import plan before its command: a pool imported meanwhile stops it', async () => {
    const exportPlan = await admin.api.storage.createPlan({ body: { kind: 'pool.export', pool: poolName } });
    expect(exportPlan.disks).to.deep.equal([loopName(0), loopName(1)]);
    expect((await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: exportPlan.planId } }))).state).to.equal('succeeded');
    const importPlan = await admin.api.storage.createPlan({ body: { kind: 'pool.import', pool: poolName } });
    // Imported behind the plan's back: the guard refuses before `zpool import` runs.
    sh(['zpool', 'import', '-d', '/dev', poolName]);
    const job = await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: importPlan.planId } }));
    expect(job.state).to.equal('failed');
    expect(job.error?.code).to.equal('storage.plan.stale');
    expect(job.error?.params).to.deep.include({ disk: loopName(0), detail: `already in the imported pool ${poolName}` });
  });

  it('stops a plan at the first failing command with its output in the job error', async () => {
    const preview = await admin.api.storage.createSharePlan({ body: { kind: 'share.create', pool: poolName, name: 'Second' } });
    // The dataset appears behind the plan's back, so its create command fails.
    sh(['zfs', 'create', `${poolName}/shares/second`]);
    const job = await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: preview.planId } }));
    expect(job.state).to.equal('failed');
    expect(job.error?.code).to.equal('storage.command.failed');
    expect(String(job.error?.params?.output)).to.match(/exists/);
    expect((await admin.api.shares.list()).some((s) => s.name === 'Second')).to.equal(false);
  });

  it('rechecks the disks of an export plan before its command: a disk detached meanwhile stops it', async () => {
    const plan = await admin.api.storage.createPlan({ body: { kind: 'pool.export', pool: poolName } });
    sh(['zpool', 'detach', poolName, loops[1]!]);
    const job = await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: plan.planId } }));
    expect(job.state).to.equal('failed');
    expect(job.error?.code).to.equal('storage.plan.stale');
    expect(job.error?.params).to.deep.include({ disk: loopName(1), detail: `no longer in the pool ${poolName}` });
    expect(sh(['zpool', 'list', '-H', '-o', 'name', poolName]).trim()).to.equal(poolName);
  });
});
