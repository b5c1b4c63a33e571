import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { expect } from 'chai';
import type { ReplicationTaskInput } from '../../shared/src/api/replication/tasks.ts';
import type { ReplicationRemote, ReplicationSend, SendRequest } from '../../daemon/src/areas/replication/tasks/tasks.jobs.ts';
import { createLogger } from '../../daemon/src/core/logger.ts';
import { CommandRunner } from '../../daemon/src/host/command-runner.ts';
import { ReplicationSnapshots } from '../../daemon/src/host/zfs-replication/source-snapshots.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { connectSocket } from '../helpers/socket.ts';
import { createPool, loopStorage } from '../helpers/zfs-pools.ts';
import { ensureZfsFuse, LoopDisks, sh, waitJob, zfsGet } from './zfs-fixture.ts';

/**
 * Runs of replication tasks with real ZFS (zfs-fuse on two loop devices, as root): pool a is the
 * source box, pool b stands in for the target box. The injected `send` is a real `zfs send` piped
 * into a real `zfs receive` of the second pool, with the bytes counted in between: the ZFS engine
 * of replication minus the ssh hop and the target's forced command (those are the send engine's,
 * built and tested beside this). The `remote` lists and destroys snapshots on pool b the same way.
 */
const disks = new LoopDisks(`cellarrr${process.pid}`);
const poolA = `${disks.prefix}a`;
const poolB = `${disks.prefix}b`;
const parent = `${poolB}/replicas`;
const pairingId = 3;
const runner = new CommandRunner(createLogger({ level: 'error', console: false, sinks: [] }), true);
const snapshots = new ReplicationSnapshots(runner);

function run(argv: string[]) {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr}`)))),
  );
  return { child, exited };
}

const sends: SendRequest[] = [];
const localSend: ReplicationSend = async (req) => {
  sends.push(req);
  const target = `${parent}/${req.suffix}`;
  // The target's datasets above the received one; the real engine's receive side makes them likewise.
  sh(['zfs', 'create', '-p', path.posix.dirname(target)]);
  const sender = run(['zfs', 'send', ...(req.replicateProperties ? ['-p'] : []), ...(req.base ? ['-i', req.base] : []), req.snapshot]);
  const receiver = run(['zfs', 'receive', target]);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      req.onProgress(bytes, bytes);
      done(null, chunk);
    },
  });
  await Promise.all([pipeline(sender.child.stdout, counter, receiver.child.stdin, { signal: req.signal }), sender.exited, receiver.exited]);
  return { bytes };
};
const localRemote: ReplicationRemote = {
  list: ({ suffix, signal }) => snapshots.list(`${parent}/${suffix}`, signal),
  destroy: async ({ suffix, snapshot }) => void sh(['zfs', 'destroy', `${parent}/${suffix}@${snapshot}`]),
};

describe('replication task runs with zfs send | zfs receive between two zfs-fuse pools', function () {
  this.timeout(180_000);
  let box: TestDaemon;
  let admin: TestClient;
  let offset = 0;
  const docs = `${poolA}/shares/docs`;
  const replica = `${parent}/office/${docs}`;
  let files = '';

  const names = (dataset: string) => sh(['zfs', 'list', '-H', '-t', 'snapshot', '-o', 'name', '-r', dataset]).trim().split('\n').filter(Boolean);
  const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
  const snapshot = async (dataset: string) => {
    offset += 60_000;
    const taken = await admin.api.storage.createSnapshot({ body: { dataset } });
    return `${dataset}@${taken.name}`;
  };
  const runTask = async (taskId: number) => waitJob(admin, await admin.api.replicationTasks.run({ params: { taskId } }));
  const makeShare = async (name: string) => {
    const plan = await admin.api.storage.createSharePlan({ body: { kind: 'share.create', pool: poolA, name } });
    expect((await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: plan.planId } }))).state).to.equal('succeeded');
    return (await admin.api.shares.list()).find((s) => s.name === name)!.hostPath!;
  };
  const task = (extra: Partial<ReplicationTaskInput>): ReplicationTaskInput => ({
    name: 'Offsite',
    pairingId,
    datasets: [docs],
    targetSuffix: 'office',
    schedule: { kind: 'every', period: 'daily' },
    retention: { kind: 'count', count: 2 },
    bandwidthLimit: null,
    replicateProperties: true,
    enabled: true,
    ...extra,
  });
  // Where a file of the share lies in the replica's mount on pool b.
  const inReplica = (name: string) => path.join(zfsGet('mountpoint', replica), path.relative(zfsGet('mountpoint', docs), files), name);

  before(async () => {
    await ensureZfsFuse();
    disks.add(2);
    box = await startTestDaemon(
      {},
      {
        clock: { now: () => Date.now() + offset },
        storage: loopStorage(disks),
        replicationTasks: { pairing: async (id) => (id === pairingId ? { id, parent } : null), send: localSend, remote: localRemote },
      },
    );
    admin = await box.signIn();
    await createPool(admin, disks, poolA, 0);
    await createPool(admin, disks, poolB, 1);
    // Reading a file of a replica, as the checks below do, must not change it (its access time),
    // or the next incremental receive is refused as "modified since most recent snapshot".
    sh(['zfs', 'create', '-o', 'atime=off', parent]);
    files = await makeShare('Docs');
  });

  after(async () => {
    await box?.close();
    await disks.cleanup();
  });

  let taskId = 0;
  it('sends the first snapshot in full; the target holds it by guid with the same files, the source holds it against pruning', async () => {
    writeFileSync(path.join(files, 'a.txt'), 'first version of a');
    const first = await snapshot(docs);
    taskId = (await admin.api.replicationTasks.create({ body: task({}) })).id;
    const socket = await connectSocket(box.url, admin);
    await socket.subscribe('storage/replication/tasks');
    const job = await runTask(taskId).finally(() => socket.close());
    // The bytes of the running run on the task topic, beside the job's own topic.
    const progress = socket.events.filter((e) => e.type === 'progress');
    expect(progress.length).to.be.above(0);
    expect(progress[0]!.data).to.deep.include({ taskId, jobId: job.id });
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    expect(sends).to.have.length(1);
    expect(sends[0]).to.include({ dataset: docs, snapshot: first, base: null, suffix: `office/${docs}`, replicateProperties: true, bandwidthLimit: null });
    expect(names(replica)).to.deep.equal([`${replica}@${first.split('@')[1]}`]);
    expect(zfsGet('guid', `${replica}@${first.split('@')[1]}`)).to.equal(zfsGet('guid', first));
    expect(sha(inReplica('a.txt'))).to.equal(sha(path.join(files, 'a.txt')));
    expect(zfsGet('userrefs', first)).to.equal('1');
    const runs = await admin.api.replicationTasks.runs({ params: { taskId } });
    expect(runs).to.have.length(1);
    expect(runs[0]).to.include({ jobId: job.id, state: 'succeeded', snapshot: first, errorCode: null });
    expect(runs[0]!.bytes).to.be.above(0).and.to.equal(job.result?.bytes);
    expect(job.progress).to.deep.include({ unit: 'bytes', done: runs[0]!.bytes });
    expect((await admin.api.replicationTasks.get({ params: { taskId } })).lastRunAt).to.be.a('string');
  });

  it('sends later snapshots incrementally from the newest both hold, moves the hold, and prunes the target to its retention', async () => {
    const [first] = names(docs);
    writeFileSync(path.join(files, 'b.txt'), 'b arrives');
    const second = await snapshot(docs);
    const job = await runTask(taskId);
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    expect(sends[1]).to.include({ snapshot: second, base: first });
    expect(sha(inReplica('b.txt'))).to.equal(sha(path.join(files, 'b.txt')));
    expect([zfsGet('userrefs', first!), zfsGet('userrefs', second)]).to.deep.equal(['0', '1']);
    // Smaller than the full stream: only what changed travelled.
    const [newest, older] = await admin.api.replicationTasks.runs({ params: { taskId } });
    expect(newest).to.include({ jobId: job.id, snapshot: second });
    expect(newest!.bytes).to.be.below(older!.bytes);

    writeFileSync(path.join(files, 'a.txt'), 'second version of a');
    writeFileSync(path.join(files, 'd.txt'), 'd arrives');
    const third = await snapshot(docs);
    expect((await runTask(taskId)).state).to.equal('succeeded');
    expect(sends[2]).to.include({ snapshot: third, base: second });
    // Keep 2 on the target: the first went there, while the source still has all three.
    const short = (s: string) => s.split('@')[1];
    expect(names(replica)).to.deep.equal([second, third].map((s) => `${replica}@${short(s)}`));
    expect(names(docs)).to.have.length(3);
    expect(zfsGet('guid', `${replica}@${short(third)}`)).to.equal(zfsGet('guid', third));
    // A file read before through zfs-fuse's mount may come from FUSE's page cache: a new file shows the content arrived.
    expect(readFileSync(inReplica('d.txt'), 'utf8')).to.equal('d arrives');
  });

  it('sends nothing when the target is up to date, and keeps the run in the history', async () => {
    const before = sends.length;
    const job = await runTask(taskId);
    expect(job.state).to.equal('succeeded');
    expect(sends.length).to.equal(before);
    expect(job.result).to.deep.include({ bytes: 0 });
    expect((await admin.api.replicationTasks.runs({ params: { taskId } })).map((r) => r.jobId)[0]).to.equal(job.id);
  });

  it('stops with its code when the target holds snapshots but none in common, destroying nothing there', async () => {
    await makeShare('Photos');
    const photos = `${poolA}/shares/photos`;
    await snapshot(photos);
    const foreign = `${parent}/office2/${photos}`;
    sh(['zfs', 'create', '-p', foreign]);
    sh(['zfs', 'snapshot', `${foreign}@by-hand`]);
    const other = await admin.api.replicationTasks.create({ body: task({ name: 'Photos', datasets: [photos], targetSuffix: 'office2' }) });
    const job = await runTask(other.id);
    expect(job.state).to.equal('failed');
    expect(job.error).to.include({ code: 'replication.run.no_common_snapshot' });
    expect(job.error?.params).to.deep.equal({ dataset: photos, target: foreign });
    expect(names(foreign)).to.deep.equal([`${foreign}@by-hand`]);
    expect((await admin.api.replicationTasks.runs({ params: { taskId: other.id } }))[0]).to.include({
      state: 'failed',
      errorCode: 'replication.run.no_common_snapshot',
    });
    await admin.api.replicationTasks.delete({ params: { taskId: other.id } });
  });

  it('stops with its code when a dataset has no snapshot yet', async () => {
    await makeShare('Music');
    const other = await admin.api.replicationTasks.create({ body: task({ name: 'Music', datasets: [`${poolA}/shares/music`], targetSuffix: 'office3' }) });
    const job = await runTask(other.id);
    expect(job.error).to.include({ code: 'replication.run.no_source_snapshot' });
    await admin.api.replicationTasks.delete({ params: { taskId: other.id } });
  });

  it('runs a task that follows the snapshot schedules after their pass took a snapshot of its dataset', async () => {
    await admin.api.replicationTasks.update({ params: { taskId }, body: { schedule: { kind: 'afterSnapshots' } } });
    await admin.api.storage.setSnapshotSchedules({ body: { dataset: docs, schedules: [{ kind: 'hourly', enabled: true, keep: 24 }] } });
    const before = (await admin.api.replicationTasks.runs({ params: { taskId } })).length;
    writeFileSync(path.join(files, 'c.txt'), 'after the schedule');
    await box.daemon.scheduler.runNow('storage.snapshots');
    let runs = await admin.api.replicationTasks.runs({ params: { taskId } });
    for (let i = 0; i < 100 && (runs.length === before || runs[0]!.state === 'queued' || runs[0]!.state === 'running'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      runs = await admin.api.replicationTasks.runs({ params: { taskId } });
    }
    expect(runs.length).to.equal(before + 1);
    expect(runs[0]!.state).to.equal('succeeded');
    expect(runs[0]!.snapshot).to.match(new RegExp(`^${docs}@service-hourly-`));
    expect(sha(inReplica('c.txt'))).to.equal(sha(path.join(files, 'c.txt')));
  });

  it('runs a task with its own times once its time has come, and plans the next period', async () => {
    const hourly = await admin.api.replicationTasks.update({ params: { taskId }, body: { schedule: { kind: 'every', period: 'hourly' } } });
    const due = Date.parse(hourly.nextRunAt!);
    expect(due).to.be.above(Date.now() + offset);
    const before = (await admin.api.replicationTasks.runs({ params: { taskId } })).length;
    await box.daemon.scheduler.runNow('replication.tasks');
    expect((await admin.api.replicationTasks.runs({ params: { taskId } })).length, 'not due yet').to.equal(before);
    offset += due - (Date.now() + offset) + 1000;
    await box.daemon.scheduler.runNow('replication.tasks');
    const runs = await admin.api.replicationTasks.runs({ params: { taskId } });
    expect(runs.length).to.equal(before + 1);
    expect((await waitJob(admin, await admin.api.jobs.get({ params: { id: runs[0]!.jobId } }))).state).to.equal('succeeded');
    expect((await admin.api.replicationTasks.get({ params: { taskId } })).nextRunAt).to.equal(new Date(due + 3_600_000).toISOString());
  });

  it("releases the task's hold when the task is deleted, so the schedules may prune that snapshot again; the replica stays", async () => {
    const held = names(docs).filter((s) => zfsGet('userrefs', s) !== '0');
    expect(held).to.have.length(1);
    await admin.api.replicationTasks.delete({ params: { taskId } });
    expect(names(docs).map((s) => zfsGet('userrefs', s))).to.not.include('1');
    expect(names(replica)).to.have.length(2);
  });
});
