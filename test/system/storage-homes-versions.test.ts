import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { createPool, loopStorage } from '../helpers/zfs-pools.ts';
import { ensureZfsFuse, LoopDisks, sh, waitJob, zfsGet } from './zfs-fixture.ts';

// Real ZFS (zfs-fuse on loop devices, as root): homes, file versions read through clones, restore points.
const mib = 1024 * 1024;
const disks = new LoopDisks(`cellarhv${process.pid}`);
const poolA = `${disks.prefix}a`;
const poolB = `${disks.prefix}b`;

describe('homes, file versions and restore points on zfs-fuse', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let admin: TestClient;
  let now = Date.UTC(2026, 10, 23, 10, 15);

  before(async () => {
    await ensureZfsFuse();
    disks.add(2);
    box = await startTestDaemon({}, { clock: { now: () => now }, storage: loopStorage(disks, { scrubPollMs: 200 }) });
    admin = await box.signIn();
    await createPool(admin, disks, poolA, 0);
    await createPool(admin, disks, poolB, 1);
  });

  after(async () => {
    await box?.close();
    await disks.cleanup();
  });

  let userId = 0;
  it('creates a home dataset with the default refquota when a user is created, and changes its quota', async () => {
    const before = await admin.api.homes.settings({ body: { defaultQuotaBytes: 16 * mib, homePool: poolA } });
    expect(before).to.deep.include({ homePool: poolA, defaultQuotaBytes: 16 * mib, homes: [] });
    expect(before.pools.find((p) => p.name === poolB)).to.deep.equal({ name: poolB, canHoldHomes: true });
    const user = await admin.api.users.create({ body: { username: 'hanna', password: 'Hanna-password-1' } });
    userId = user.id;
    expect(zfsGet('refquota', `${poolA}/homes/hanna`)).to.equal(String(16 * mib));
    // The home's files are the dataset's `files` folder, owned by the user; the mount point stays root's.
    const homeFiles = path.join(disks.work, 'mnt', poolA, 'homes', 'hanna', 'files');
    expect((await admin.api.users.list()).find((u) => u.id === userId)?.home).to.equal(homeFiles);
    expect(statSync(homeFiles).uid).to.equal(user.uid);
    expect(statSync(path.dirname(homeFiles)).uid).to.equal(0);
    const own = await admin.api.homes.setQuota({ params: { userId }, body: { quotaBytes: 8 * mib } });
    expect(own.homes[0]).to.include({ folder: 'hanna', quotaBytes: 8 * mib, effectiveQuotaBytes: 8 * mib, deleted: false });
    expect(zfsGet('refquota', `${poolA}/homes/hanna`)).to.equal(String(8 * mib));
    await admin.api.homes.setQuota({ params: { userId }, body: { quotaBytes: 0 } });
    expect(zfsGet('refquota', `${poolA}/homes/hanna`)).to.equal('0');
    await admin.api.homes.setQuota({ params: { userId }, body: { quotaBytes: null } });
    expect(zfsGet('refquota', `${poolA}/homes/hanna`)).to.equal(String(16 * mib));
    await expectProblem(admin.api.homes.settings({ body: { defaultQuotaBytes: null, homePool: poolB } }), 'homes.pool.has_homes', 409);
    writeFileSync(path.join(homeFiles, 'diary.txt'), 'dear diary');
    // A deleted file waits in the bin beside the home's files, on the home's dataset.
    writeFileSync(path.join(homeFiles, 'draft.txt'), 'draft');
    const homeShare = (await admin.api.homes.overview()).homes[0]!.shareId;
    const deleted = await waitJob(admin, await admin.api.fileOperations.run({ body: { op: 'delete', sources: [{ shareId: homeShare, path: 'draft.txt' }] } }));
    expect(deleted.state, JSON.stringify(deleted.error)).to.equal('succeeded');
    expect(readdirSync(path.join(disks.work, 'mnt', poolA, 'homes', 'hanna', '.cellar-trash', 'files'))).to.have.length(1);
    expect(readdirSync(homeFiles)).to.deep.equal(['diary.txt']);
  });

  let shareId = 0;
  let root = '';
  it('lists versions of a file newest first, once per content, and restores one next to it and over it', async () => {
    const plan = await admin.api.storage.createSharePlan({ body: { kind: 'share.create', pool: poolA, name: 'Docs' } });
    expect((await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: plan.planId } }))).state).to.equal('succeeded');
    const share = (await admin.api.shares.list()).find((s) => s.name === 'Docs')!;
    shareId = share.id;
    root = share.hostPath!;
    const dataset = `${poolA}/shares/docs`;
    const file = path.join(root, 'a.txt');
    writeFileSync(file, 'one');
    await admin.api.storage.createSnapshot({ body: { dataset } });
    now += 60_000;
    await admin.api.storage.createSnapshot({ body: { dataset } }); // same content: listed once
    now += 60_000;
    writeFileSync(file, 'two');
    await admin.api.storage.createSnapshot({ body: { dataset } });
    now += 60_000;
    writeFileSync(file, 'three');
    const list = await admin.api.fileVersions.list({ params: { shareId }, query: { path: 'a.txt' } });
    expect(list.deleted).to.equal(false);
    expect(list.versions.map((v) => [v.version, v.size])).to.deep.equal([
      ['service-manual-20261123T101700Z', 3],
      ['service-manual-20261123T101600Z', 3],
    ]);
    // While the file equals a version, that version is not listed.
    writeFileSync(file, 'two');
    expect((await admin.api.fileVersions.list({ params: { shareId }, query: { path: 'a.txt' } })).versions.map((v) => v.version)).to.deep.equal([
      'service-manual-20261123T101600Z',
    ]);
    writeFileSync(file, 'three');

    const oldest = list.versions[1]!;
    const job = await waitJob(admin, await admin.api.fileVersions.restore({ params: { shareId }, body: { path: 'a.txt', version: oldest.version } }));
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    const stamp = oldest.snapshotAt.slice(0, 10) + ' ' + oldest.snapshotAt.slice(11, 13) + '.' + oldest.snapshotAt.slice(14, 16);
    expect(readFileSync(path.join(root, `a (version ${stamp} UTC).txt`), 'utf8')).to.equal('one');
    const over = await waitJob(
      admin,
      await admin.api.fileVersions.restore({ params: { shareId }, body: { path: 'a.txt', version: oldest.version, overwrite: true } }),
    );
    expect(over.state, JSON.stringify(over.error)).to.equal('succeeded');
    expect(readFileSync(file, 'utf8')).to.equal('one');

    // A deleted file still has its versions.
    rmSync(file);
    const gone = await admin.api.fileVersions.list({ params: { shareId }, query: { path: 'a.txt' } });
    expect(gone.deleted).to.equal(true);
    expect(gone.versions).to.have.length(2);
    await expectProblem(admin.api.fileVersions.list({ params: { shareId }, query: { path: '../etc' } }), 'fs.path.invalid', 400);
    // The temporary clones are gone again.
    expect(sh(['zfs', 'list', '-H', '-o', 'name', '-r', poolA])).not.to.match(/cellar-version-/);
  });

  it('takes a daily restore point while on and prunes it after 7 days (fake clock)', async () => {
    const dataset = `${poolA}/shares/docs`;
    const restoreNames = () =>
      sh(['zfs', 'list', '-H', '-t', 'snapshot', '-o', 'name', '-r', dataset])
        .split('\n')
        .filter((n) => n.includes('@service-restore-'));
    await box.daemon.scheduler.runNow('storage.restorePoints');
    expect(restoreNames()).to.deep.equal([]);
    await admin.request('PUT', `/api/shares/${shareId}/restore-points`, { body: { enabled: true } });
    await box.daemon.scheduler.runNow('storage.restorePoints');
    await box.daemon.scheduler.runNow('storage.restorePoints');
    expect(restoreNames()).to.deep.equal([`${dataset}@service-restore-20261123T000000Z`]);
    now += 8 * 86400_000;
    await box.daemon.scheduler.runNow('storage.restorePoints');
    expect(restoreNames()).to.deep.equal([`${dataset}@service-restore-20261201T000000Z`]);
    const snaps = await admin.api.storage.snapshots({ query: { dataset } });
    expect(snaps.snapshots.find((s) => s.name.startsWith('service-restore-'))?.serviceKind).to.equal('restore');
  });

  it('moves every home to another pool as a job, keeping its files', async () => {
    const job = await waitJob(admin, await admin.api.homes.move({ body: { pool: poolB } }));
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    expect(job.result).to.deep.equal({ moved: ['hanna'], failed: [] });
    expect(readFileSync(path.join(disks.work, 'mnt', poolB, 'homes', 'hanna', 'files', 'diary.txt'), 'utf8')).to.equal('dear diary');
    // The bin moved with the home: its item is restored from the new dataset.
    const homeShare = (await admin.api.homes.overview()).homes[0]!.shareId;
    const [draft] = (await admin.api.trash.list({ params: { shareId: homeShare }, query: {} })).items;
    const restored = await waitJob(admin, await admin.api.trash.restore({ params: { shareId: homeShare }, body: { ids: [draft!.id] } }));
    expect(restored.state, JSON.stringify(restored.error)).to.equal('succeeded');
    expect(readFileSync(path.join(disks.work, 'mnt', poolB, 'homes', 'hanna', 'files', 'draft.txt'), 'utf8')).to.equal('draft');
    expect(zfsGet('refquota', `${poolB}/homes/hanna`)).to.equal(String(16 * mib));
    expect(() => sh(['zfs', 'list', `${poolA}/homes/hanna`])).to.throw();
    const overview = await admin.api.homes.overview();
    expect(overview.homePool).to.equal(poolB);
    expect(overview.homes[0]).to.include({ pool: poolB, dataset: `${poolB}/homes/hanna` });
    await expectProblem(admin.api.homes.move({ body: { pool: poolB } }), 'homes.pool.same', 409);
  });

  it('keeps a deleted user’s home as <name>.deleted-<uid>, then releases it into a share', async () => {
    const uid = (await admin.api.users.list()).find((u) => u.id === userId)!.uid;
    const deletion = await admin.api.users.remove({ params: { userId }, query: {} });
    const folder = `hanna.deleted-${uid}`;
    expect(deletion).to.deep.include({ home: 'keep', keptHome: folder, job: null });
    expect(zfsGet('type', `${poolB}/homes/${folder}`)).to.equal('filesystem');
    const home = (await admin.api.homes.overview()).homes[0]!;
    expect(home).to.include({ folder, deleted: true, userId: null });
    await expectProblem(admin.api.homes.delete({ params: { shareId: home.shareId }, query: { confirm: 'wrong' } }), 'homes.confirm.mismatch', 400);
    const job = await waitJob(admin, await admin.api.homes.release({ params: { shareId: home.shareId }, body: { shareId } }));
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    expect(readFileSync(path.join(root, folder, 'diary.txt'), 'utf8')).to.equal('dear diary');
    expect(readdirSync(path.join(root, folder)).sort()).to.deep.equal(['diary.txt', 'draft.txt']);
    expect(existsSync(path.join(disks.work, 'mnt', poolB, 'homes', folder))).to.equal(false);
    expect((await admin.api.homes.overview()).homes).to.deep.equal([]);
  });

  it('destroys the home with home=delete and the user name as confirm', async () => {
    const user = await admin.api.users.create({ body: { username: 'ivo', password: 'Ivo-password-12' } });
    expect(zfsGet('type', `${poolB}/homes/ivo`)).to.equal('filesystem');
    await expectProblem(admin.api.users.remove({ params: { userId: user.id }, query: { home: 'delete', confirm: 'nope' } }), 'users.confirm.mismatch', 400);
    await admin.api.users.remove({ params: { userId: user.id }, query: { home: 'delete', confirm: 'ivo' } });
    expect(() => sh(['zfs', 'list', `${poolB}/homes/ivo`])).to.throw();
    expect((await admin.api.homes.overview()).homes).to.deep.equal([]);
  });
});
