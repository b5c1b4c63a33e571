import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { daysAgo, seedLogs } from '../helpers/logs.ts';
import { ensureZfsFuse, LoopDisks, waitJob } from './zfs-fixture.ts';

// Real ZFS (zfs-fuse on loop devices, as root): the log archive lands on the pool the
// administrator chose, in a folder of the pool's root dataset.
const disks = new LoopDisks(`cellarla${process.pid}`);
const pool = `${disks.prefix}p`;

describe('logs: the archive on a real pool', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let admin: TestClient;

  before(async () => {
    await ensureZfsFuse();
    disks.add(1);
    disks.pools.add(pool);
    box = await startTestDaemon(
      {},
      { storage: { apply: true, includeLoopDevices: true, minDiskBytes: 64 * 1024 * 1024, mountRoot: path.join(disks.work, 'mnt'), importDirs: ['/dev'] } },
    );
    admin = await box.signIn();
    const plan = await admin.api.storage.createPlan({ body: { kind: 'pool.create', pool, layout: 'stripe', disks: [disks.name(0)] } });
    expect((await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: plan.planId } }))).state).to.equal('succeeded');
    // Reads the pools (the scheduled read may still be under way).
    await admin.api.storage.pools();
  });

  after(async () => {
    await box?.close();
    await disks.cleanup();
  });

  it('offers the pool and writes entries past retention into daily files on it', async () => {
    seedLogs(
      box,
      [40, 35].map((d, i) => ({ level: 'info' as const, source: 'system/archived', message: `old ${i}`, time: daysAgo(d) })),
    );
    const status = await admin.api.logs.updateSettings({
      body: { maxBytes: 256 * 1024 * 1024, retentionDays: 30, archive: true, archiveRetentionDays: 365, archivePool: pool },
    });
    expect(status.archivePools).to.include(pool);
    expect(status.archivePool).to.equal(pool);
    const mountpoint = (await admin.api.storage.pools()).pools.find((p) => p.name === pool)?.datasets.find((d) => d.name === pool)?.mountpoint;
    expect(mountpoint).to.be.a('string');
    const files = readdirSync(path.join(mountpoint as string, '.cellar-logs')).filter((f) => /^cellar-logs-\d{4}-\d{2}-\d{2}\.jsonl\.gz$/.test(f));
    expect(files).to.have.length(2);
    const found = await admin.api.logs.list({ query: { source: ['system/archived'] } });
    expect(found.items.map((e) => e.message)).to.deep.equal(['old 1', 'old 0']);
  });
});
