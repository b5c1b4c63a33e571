import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import type { TopicEvent } from '../../shared/src/topics.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { finished } from '../helpers/file-operations.ts';
import { registerTestKinds, waitUntil } from '../helpers/jobs.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';
import { connectSocket, type TestSocket } from '../helpers/socket.ts';
import { insertUser } from '../helpers/users.ts';

const password = 'alice has a long password';
const jobEvents = (s: TestSocket, id: number) => s.events.filter((e) => e.topic === 'jobs' && (e.data as Job).id === id);
const summary = (events: TopicEvent[]) => events.map((e) => `${e.type}:${(e.data as Job).state}`);

describe('jobs topic: the caller’s own jobs, live', () => {
  let box: TestDaemon;
  let kinds: ReturnType<typeof registerTestKinds>;
  let admin: TestClient;
  let alice: TestClient;
  let aliceId: number;
  const sockets: TestSocket[] = [];
  const open = async (client: TestClient): Promise<TestSocket> => {
    const s = await connectSocket(box.url, client);
    sockets.push(s);
    const ack = await s.subscribe('jobs');
    expect(ack.ok).to.equal(true);
    return s;
  };

  before(async () => {
    box = await startTestDaemon();
    kinds = registerTestKinds(box.daemon.jobs);
    admin = await box.signIn();
    aliceId = await insertUser(box, 'alice', password);
    alice = await box.signIn('alice', password);
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });
  after(async () => {
    await box.close();
    removeTempFolders();
  });

  it('announces a file copy started through the API as added, then its state changes, to its user only', async () => {
    const { share, folder } = await makeShare(admin, 'Copies');
    mkdirSync(path.join(folder, 'into'));
    writeFileSync(path.join(folder, 'report.txt'), 'report');
    const mine = await open(admin);
    const hers = await open(alice);

    const added = mine.nextEvent('jobs');
    const job = await admin.api.fileOperations.run({
      body: { op: 'copy', sources: [{ shareId: share.id, path: 'report.txt' }], target: { shareId: share.id, path: 'into' } },
    });
    const event = await added;
    expect(event.type).to.equal('added');
    expect(event.data).to.include({ id: job.id, kind: 'files.operation', userId: admin.user!.id });

    const done = await finished(admin, job.id);
    expect(done.state).to.equal('succeeded');
    await waitUntil(() => jobEvents(mine, job.id).some((e) => (e.data as Job).state === 'succeeded'), 'the succeeded event');
    const seen = summary(jobEvents(mine, job.id));
    expect(seen[0]).to.equal('added:queued');
    expect(seen.at(-1)).to.equal('changed:succeeded');
    expect(jobEvents(mine, job.id).at(-1)?.data).to.deep.equal(done);

    // Alice's own next job is the first thing her socket hears: nothing of the administrator's came before it.
    const herFirst = hers.nextEvent('jobs');
    const hersJob = await box.daemon.jobs.enqueue('test.echo', { n: 1 }, aliceId);
    expect((await herFirst).data).to.include({ id: hersJob.id, userId: aliceId });
    expect(hers.events.filter((e) => e.topic === 'jobs' && (e.data as Job).userId !== aliceId)).to.deep.equal([]);
  });

  it('sends state changes only: progress stays on jobs/<id>', async () => {
    const mine = await open(alice);
    const detail = await connectSocket(box.url, alice);
    sockets.push(detail);
    const job = await box.daemon.jobs.enqueue('test.gate', {}, aliceId);
    expect((await detail.subscribe(`jobs/${job.id}`)).ok).to.equal(true);
    await waitUntil(() => kinds.started.includes(job.id), 'the gate job to start');
    // The gate reports 1/3 on start; wait until that progress reached the job's own topic.
    await waitUntil(() => detail.events.some((e) => (e.data as Job).progress?.done === 1), 'progress on jobs/<id>');
    kinds.open(job.id);
    await waitUntil(() => jobEvents(mine, job.id).some((e) => (e.data as Job).state === 'succeeded'), 'the succeeded event');
    expect(summary(jobEvents(mine, job.id))).to.deep.equal(['added:queued', 'changed:running', 'changed:succeeded']);
    expect((jobEvents(mine, job.id).at(-1)?.data as Job).progress).to.deep.equal({ done: 3, total: 3, unit: 'steps' });
  });

  it('announces a cancelled queued job as changed', async () => {
    const gate = await box.daemon.jobs.enqueue('test.gate', {}, aliceId);
    await waitUntil(() => kinds.started.includes(gate.id), 'the gate job to start');
    const mine = await open(alice);
    const added = mine.nextEvent('jobs');
    const queued = await box.daemon.jobs.enqueue('test.gate', {}, aliceId);
    expect(await added).to.deep.include({ type: 'added' });
    const changed = mine.nextEvent('jobs');
    await alice.api.jobs.cancel({ params: { id: queued.id } });
    const event = await changed;
    expect(event.type).to.equal('changed');
    expect(event.data).to.include({ id: queued.id, state: 'cancelled' });
    kinds.open(gate.id);
    await finished(alice, gate.id);
  });

  it("answers a snapshot of the caller's own jobs only, administrators included", async () => {
    const aliceJob = await box.daemon.jobs.enqueue('test.echo', { n: 7 }, aliceId);
    const adminJob = await box.daemon.jobs.enqueue('test.echo', { n: 8 }, admin.user!.id);
    await finished(alice, aliceJob.id);
    await finished(admin, adminJob.id);

    const s = await connectSocket(box.url, alice);
    sockets.push(s);
    const ack = await s.subscribe('jobs');
    expect(ack.ok).to.equal(true);
    const snapshot = (ack as { snapshot: Job[] }).snapshot;
    expect(snapshot.map((j) => j.id)).to.include(aliceJob.id);
    expect(snapshot.every((j) => j.userId === aliceId)).to.equal(true);
    expect(snapshot).to.deep.equal((await alice.api.jobs.list()).slice(0, snapshot.length));

    const adminSocket = await connectSocket(box.url, admin);
    sockets.push(adminSocket);
    const adminSnapshot = ((await adminSocket.subscribe('jobs')) as { snapshot: Job[] }).snapshot;
    expect(adminSnapshot.map((j) => j.id)).to.include(adminJob.id);
    expect(adminSnapshot.every((j) => j.userId === admin.user!.id)).to.equal(true);
  });

  it('keeps every unfinished job in a snapshot of at most 30', async () => {
    const gate = await box.daemon.jobs.enqueue('test.gate', {}, aliceId);
    const echoes = await Promise.all(Array.from({ length: 35 }, (_, n) => box.daemon.jobs.enqueue('test.echo', { n }, aliceId)));
    await Promise.all(echoes.map((job) => finished(alice, job.id)));
    await waitUntil(() => kinds.started.includes(gate.id), 'the gate job to start');
    const s = await connectSocket(box.url, alice);
    sockets.push(s);
    const snapshot = ((await s.subscribe('jobs')) as { snapshot: Job[] }).snapshot;
    expect(snapshot).to.have.length(30);
    expect(snapshot.map((j) => j.id)).to.include(gate.id);
    const ids = snapshot.map((j) => j.id);
    expect(ids).to.deep.equal([...ids].sort((x, y) => y - x));
    kinds.open(gate.id);
    await finished(alice, gate.id);
  });
});
