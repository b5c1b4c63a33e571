import path from 'node:path';
import { expect } from 'chai';
import type { PoolList } from '../../shared/src/api/storage/storage.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { connectSocket, type TestSocket } from '../helpers/socket.ts';
import { insertUser } from '../helpers/users.ts';
import { ensureZfsFuse, LoopDisks, sh, waitJob } from './zfs-fixture.ts';

// Real ZFS (zfs-fuse on loop devices, as root): a mirror degraded by `zpool offline` gives a
// real pool.health alert; mutes through the API, and the storage topics over Socket.IO.
const disks = new LoopDisks(`cellaral${process.pid}`);
const pool = `${disks.prefix}p`;
const key = `pool.health:${pool}`;

describe('storage alerts, mutes and topics on zfs-fuse', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let admin: TestClient;
  let second: TestClient;
  let socket: TestSocket;
  const mine = async (client: TestClient) =>
    (await client.api.storage.alerts()).alerts.filter((a) => a.subject === pool).map((a) => [a.key, a.severity, a.muted]);
  const readHealth = () => box.daemon.scheduler.runNow('storage.health');

  before(async () => {
    await ensureZfsFuse();
    disks.add(2);
    disks.pools.add(pool);
    box = await startTestDaemon(
      {},
      {
        storage: {
          apply: true,
          includeLoopDevices: true,
          minDiskBytes: 64 * 1024 * 1024,
          mountRoot: path.join(disks.work, 'mnt'),
          importDirs: ['/dev'],
          scrubPollMs: 200,
        },
      },
    );
    admin = await box.signIn();
    await insertUser(box, 'second-admin', 'second-admin-password-1', { admin: true });
    second = await box.signIn('second-admin', 'second-admin-password-1');
    socket = await connectSocket(box.url, admin);
  });

  after(async () => {
    socket?.close();
    await box?.close();
    await disks.cleanup();
  });

  it('sends the pools as snapshot of storage/pools and an event when a plan creates a pool or a scrub starts', async () => {
    const ack = await socket.subscribe('storage/pools');
    expect(ack.ok).to.equal(true);
    expect((ack as { snapshot: PoolList }).snapshot.pools.some((p) => p.name === pool)).to.equal(false);
    const plan = await admin.api.storage.createPlan({ body: { kind: 'pool.create', pool, layout: 'mirror', disks: [disks.name(0), disks.name(1)] } });
    const created = socket.nextEvent('storage/pools', 10_000);
    expect((await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: plan.planId } }))).state).to.equal('succeeded');
    const event = await created;
    expect(event.type).to.equal('changed');
    expect((event.data as PoolList).pools.find((p) => p.name === pool)?.health).to.equal('ONLINE');
    const scrubbed = socket.nextEvent('storage/pools', 10_000);
    await admin.api.storage.startScrub({ params: { pool } });
    expect((await scrubbed).data as PoolList).to.satisfy((l: PoolList) => l.pools.find((p) => p.name === pool)?.scan.function === 'scrub');
  });

  it('refuses storage/pools and storage/alerts to a non-administrator', async () => {
    await insertUser(box, 'plain', 'plain-password-1');
    const plain = await connectSocket(box.url, await box.signIn('plain', 'plain-password-1'));
    try {
      for (const topic of ['storage/pools', 'storage/alerts']) {
        const ack = await plain.subscribe(topic);
        expect(ack.ok).to.equal(false);
        expect((ack as { problem: { code: string } }).problem.code).to.equal('auth.permission.denied');
      }
    } finally {
      plain.close();
    }
  });

  it('raises a pool.health warning for a degraded mirror and pushes a change on storage/alerts', async () => {
    const ack = await socket.subscribe('storage/alerts');
    expect(ack.ok).to.equal(true);
    const changed = socket.nextEvent('storage/alerts', 10_000);
    sh(['zpool', 'offline', pool, disks.loops[1]!]);
    await readHealth();
    expect((await changed).type).to.equal('changed');
    expect(await mine(admin)).to.deep.equal([[key, 'warning', false]]);
  });

  it('mutes for the caller only, shows it again on unmute, and cannot delete an alert', async () => {
    const muted = await admin.api.storage.muteAlert({ params: { key } });
    expect(muted.alerts.find((a) => a.key === key)?.muted).to.equal(true);
    expect(await mine(admin)).to.deep.equal([[key, 'warning', true]]);
    expect(await mine(second)).to.deep.equal([[key, 'warning', false]]);
    const shown = await admin.api.storage.unmuteAlert({ params: { key } });
    expect(shown.alerts.find((a) => a.key === key)?.muted).to.equal(false);
    const res = await admin.request('DELETE', `/api/storage/alerts/${encodeURIComponent(key)}`);
    expect(res.status).to.equal(404);
    expect((await res.json()).code).to.equal('request.route.not_found');
    await expectProblem(admin.api.storage.muteAlert({ params: { key: `pool.health:${disks.prefix}absent` } }), 'storage.alert.not_found', 404);
    await expectProblem(admin.api.storage.unmuteAlert({ params: { key: `pool.health:${disks.prefix}absent` } }), 'storage.alert.not_found', 404);
  });

  it('forgets the mute when the alert goes away, so the next degradation shows again', async () => {
    await admin.api.storage.muteAlert({ params: { key } });
    sh(['zpool', 'online', pool, disks.loops[1]!]);
    await readHealth();
    expect(await mine(admin)).to.deep.equal([]);
    sh(['zpool', 'offline', pool, disks.loops[1]!]);
    await readHealth();
    expect(await mine(admin)).to.deep.equal([[key, 'warning', false]]);
    sh(['zpool', 'online', pool, disks.loops[1]!]);
  });
});
