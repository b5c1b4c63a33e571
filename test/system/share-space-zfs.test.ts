import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { ensureZfsFuse, LoopDisks, waitJob } from './zfs-fixture.ts';

// Real ZFS (zfs-fuse on a loop device, as root): a home whose dataset quota is reached is a full share (issue 19).
const mib = 1024 * 1024;
const disks = new LoopDisks(`cellarsp${process.pid}`);
const pool = `${disks.prefix}a`;

describe('system: a home over its ZFS quota', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let admin: TestClient;
  let homeShare: number;
  let homeFiles: string;

  before(async () => {
    await ensureZfsFuse();
    disks.add(1);
    box = await startTestDaemon(
      {},
      { storage: { apply: true, includeLoopDevices: true, minDiskBytes: 64 * mib, mountRoot: path.join(disks.work, 'mnt'), importDirs: ['/dev'] } },
    );
    admin = await box.signIn();
    disks.pools.add(pool);
    const plan = await admin.api.storage.createPlan({ body: { kind: 'pool.create', pool, layout: 'stripe', disks: [disks.name(0)] } });
    expect((await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: plan.planId } }))).state).to.equal('succeeded');
    await admin.api.homes.settings({ body: { defaultQuotaBytes: 8 * mib, homePool: pool } });
    await admin.api.users.create({ body: { username: 'spacy', password: 'Spacy-password-1' } });
    const home = (await admin.api.homes.overview()).homes[0]!;
    homeShare = home.shareId as number;
    homeFiles = path.join(disks.work, 'mnt', pool, 'homes', 'spacy', 'files');
  });

  after(async () => {
    await box?.close();
    await disks.cleanup();
  });

  it('refuses an upload larger than the quota leaves, naming the home and the sizes', async () => {
    const res = await admin.request('PUT', `/api/files/${homeShare}/content?path=big.bin`, {
      body: 'x'.repeat(12 * mib),
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(res.status).to.equal(507);
    const problem = (await res.json()) as { code: string; params: { share: string; needed: number; free: number } };
    expect(problem.code).to.equal('fs.space.insufficient');
    expect(problem.params.needed).to.equal(12 * mib);
    expect(problem.params.free).to.be.at.most(8 * mib);
  });

  it('fails a copy that passes the quota with the job error fs.space.insufficient', async () => {
    writeFileSync(path.join(homeFiles, 'five.bin'), Buffer.alloc(5 * mib, 3));
    const job = await admin.api.fileOperations.run({
      body: { op: 'copy', sources: [{ shareId: homeShare, path: 'five.bin' }], target: { shareId: homeShare, path: '' }, onConflict: 'rename' },
    });
    const done = await waitJob(admin, job);
    expect(done.state).to.equal('failed');
    expect(done.error).to.deep.include({ code: 'fs.space.insufficient', status: 507 });
    expect((await admin.api.files.list({ params: { shareId: homeShare }, query: {} })).items.map((e) => e.name)).to.deep.equal(['five.bin']);
  });
});
