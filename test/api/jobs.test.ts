import { expect } from 'chai';
import path from 'node:path';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import { openDatabase } from '../../daemon/src/db/database.ts';
import { createLogger } from '../../daemon/src/core/logger.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { isFinished, registerTestKinds, waitForJob, waitUntil } from '../helpers/jobs.ts';
import { connectSocket } from '../helpers/socket.ts';
import { insertUser } from '../helpers/users.ts';

const alicePassword = 'alice has a long password';

describe('jobs API', () => {
  let box: TestDaemon;
  let kinds: ReturnType<typeof registerTestKinds>;
  let admin: TestClient;
  let alice: TestClient;
  let bob: TestClient;
  let aliceId: number;

  before(async () => {
    box = await startTestDaemon();
    kinds = registerTestKinds(box.daemon.jobs);
    aliceId = await insertUser(box, 'alice', alicePassword);
    admin = await box.signIn();
    alice = await box.signIn('alice', alicePassword);
    await insertUser(box, 'bob', alicePassword);
    bob = await box.signIn('bob', alicePassword);
  });
  after(() => box.close());

  it('refuses every route without a session: 401 auth.session.required', async () => {
    const anonymous = box.client();
    await expectProblem(anonymous.api.jobs.list(), 'auth.session.required', 401);
    await expectProblem(anonymous.api.jobs.get({ params: { id: 1 } }), 'auth.session.required', 401);
    await expectProblem(anonymous.api.jobs.cancel({ params: { id: 1 } }), 'auth.session.required', 401);
  });

  it('refuses an id that is not a positive int64: 400 request.params.invalid', async () => {
    for (const bad of ['abc', '0', '-4', '1.5', '99999999999999999999']) {
      const got = await alice.request('GET', `/api/jobs/${bad}`);
      expect(got.status, bad).to.equal(400);
      expect((await got.json()).code).to.equal('request.params.invalid');
      const cancel = await alice.request('POST', `/api/jobs/${bad}/cancel`);
      expect(cancel.status, bad).to.equal(400);
    }
  });

  it('answers 404 jobs.job.not_found for an absent job', async () => {
    await expectProblem(alice.api.jobs.get({ params: { id: 987654 } }), 'jobs.job.not_found', 404);
    await expectProblem(alice.api.jobs.cancel({ params: { id: 987654 } }), 'jobs.job.not_found', 404);
  });

  it("hides another user's job behind 404 jobs.job.not_found while administrators read it", async () => {
    const adminJob = await box.daemon.jobs.enqueue('test.echo', { n: 1 }, admin.user!.id);
    const aliceJob = await box.daemon.jobs.enqueue('test.echo', { n: 2 }, aliceId);
    await expectProblem(alice.api.jobs.get({ params: { id: adminJob.id } }), 'jobs.job.not_found', 404);
    await expectProblem(alice.api.jobs.cancel({ params: { id: adminJob.id } }), 'jobs.job.not_found', 404);
    const read = await waitForJob(admin, aliceJob.id, isFinished);
    expect(read).to.include({ id: aliceJob.id, userId: aliceId, state: 'succeeded' });
    expect(read.result).to.deep.equal({ n: 2 });
    expect((await alice.api.jobs.list()).map((j) => j.id))
      .to.include(aliceJob.id)
      .and.not.include(adminJob.id);
    expect((await admin.api.jobs.list()).map((j) => j.id))
      .to.include(adminJob.id)
      .and.not.include(aliceJob.id);
  });

  it("lists only the user's 100 most recent jobs, newest first", async () => {
    const ids: number[] = [];
    for (let n = 0; n < 105; n++) ids.push((await box.daemon.jobs.enqueue('test.echo', { n }, bob.user!.id)).id);
    const listed = await bob.api.jobs.list();
    expect(listed).to.have.length(100);
    expect(listed.map((j) => j.id)).to.deep.equal(ids.slice(5).reverse());
    expect(listed.every((j) => j.userId === bob.user!.id && j.kind === 'test.echo')).to.equal(true);
  });

  it('cancels a queued job at once and asks a running one to stop, cancelled once its work gives up', async () => {
    const running = await box.daemon.jobs.enqueue('test.gate', {}, aliceId);
    const queued = await box.daemon.jobs.enqueue('test.gate', {}, aliceId);
    await waitUntil(() => kinds.started.includes(running.id), 'the first job to start');

    const cancelQueued = await alice.request('POST', `/api/jobs/${queued.id}/cancel`);
    expect(cancelQueued.status).to.equal(204);
    const cancelled = await alice.api.jobs.get({ params: { id: queued.id } });
    expect(cancelled).to.include({ state: 'cancelled', startedAt: null });
    expect(cancelled.finishedAt).to.be.a('string');

    await alice.api.jobs.cancel({ params: { id: running.id } });
    // Its work takes 300 ms to give up: until then it is still running.
    expect((await alice.api.jobs.get({ params: { id: running.id } })).state).to.equal('running');
    const stopped = await waitForJob(alice, running.id, isFinished);
    expect(stopped).to.include({ state: 'cancelled', error: null, result: null });
    expect(kinds.started).to.not.include(queued.id);
  });

  it('answers 204 and changes nothing when cancelling a finished job', async () => {
    const job = await box.daemon.jobs.enqueue('test.echo', { n: 7 }, aliceId);
    const before = await waitForJob(alice, job.id, isFinished);
    expect(before.state).to.equal('succeeded');
    const res = await alice.request('POST', `/api/jobs/${job.id}/cancel`);
    expect(res.status).to.equal(204);
    expect(await alice.api.jobs.get({ params: { id: job.id } })).to.deep.equal(before);
  });

  it('shows an unexpected failure as server.internal.error without its internals', async () => {
    const job = await box.daemon.jobs.enqueue('test.crash', {}, aliceId);
    const failed = await waitForJob(alice, job.id, isFinished);
    expect(failed.state).to.equal('failed');
    expect(failed.error).to.include({ code: 'server.internal.error', status: 500 });
    expect(JSON.stringify(failed)).to.not.include('secret-disk');
  });

  it('publishes the job on jobs/<id> to its user and refuses the topic to others', async () => {
    const job = await box.daemon.jobs.enqueue('test.gate', {}, aliceId);
    const own = await connectSocket(box.url, alice);
    const other = await connectSocket(box.url, bob);
    try {
      const ack = await own.subscribe(`jobs/${job.id}`);
      expect(ack.ok).to.equal(true);
      expect((ack as { snapshot: Job }).snapshot).to.include({ id: job.id, kind: 'test.gate' });
      const refused = await other.subscribe(`jobs/${job.id}`);
      expect(refused).to.deep.include({ ok: false });
      expect((refused as { ok: false; problem: { code: string } }).problem.code).to.equal('jobs.job.not_found');

      await waitUntil(() => kinds.started.includes(job.id), 'the job to start');
      kinds.open(job.id);
      await waitUntil(() => own.events.some((e) => (e.data as Job).state === 'succeeded'), 'the succeeded event');
      const last = own.events.at(-1)!;
      expect(last).to.include({ topic: `jobs/${job.id}`, type: 'changed' });
      expect((last.data as Job).progress).to.deep.equal({ done: 3, total: 3, unit: 'steps' });
      expect(other.events).to.deep.equal([]);
    } finally {
      own.close();
      other.close();
    }
  });
});

describe('jobs API: restart recovery', () => {
  it('ends running jobs failed jobs.job.interrupted and runs the queued ones after the daemon is closed and reopened', async () => {
    const first = await startTestDaemon();
    registerTestKinds(first.daemon.jobs);
    const firstAdmin = await first.signIn();
    const adminId = firstAdmin.user!.id;
    const running = await first.daemon.jobs.enqueue('test.gate', { label: 'running' }, adminId);
    const queued = await first.daemon.jobs.enqueue('test.gate', { label: 'queued' }, adminId);
    const crashed = await first.daemon.jobs.enqueue('test.gate', { label: 'crashed' }, adminId);
    await waitForJob(firstAdmin, running.id, (j) => j.state === 'running');
    await first.close({ keepData: true });

    // A crash leaves a job marked running with nobody running it: make that happen on disk.
    const file = path.join(first.dataDir, 'cellar.sqlite');
    const db = await openDatabase(file, createLogger({ level: 'error', console: false, sinks: [] }));
    await db.query("UPDATE jobs SET state = 'running', started_at = ? WHERE id = ?", { replacements: [new Date().toISOString(), crashed.id] });
    await db.close();

    const second = await startTestDaemon({ dataDir: first.dataDir });
    try {
      const admin = await second.signIn();
      for (const id of [running.id, crashed.id]) {
        const job = await admin.api.jobs.get({ params: { id } });
        expect(job.state, `job ${id}`).to.equal('failed');
        expect(job.error).to.include({ code: 'jobs.job.interrupted', status: 500 });
      }
      // Queued work waits for its kind, and runs once the area registers it.
      expect((await admin.api.jobs.get({ params: { id: queued.id } })).state).to.equal('queued');
      const kinds = registerTestKinds(second.daemon.jobs);
      await waitUntil(() => kinds.started.includes(queued.id), 'the queued job to run');
      kinds.open(queued.id);
      expect((await waitForJob(admin, queued.id, isFinished)).state).to.equal('succeeded');
    } finally {
      await second.close();
    }
  });
});

describe('jobs API: retention', () => {
  it('removes finished jobs 7 days after they finished and keeps newer and unfinished ones', async () => {
    let offset = 0;
    const day = 24 * 60 * 60 * 1000;
    const box = await startTestDaemon({}, { clock: { now: () => Date.now() + offset } });
    try {
      const kinds = registerTestKinds(box.daemon.jobs);
      const admin = await box.signIn();
      const id = admin.user!.id;
      const old = await waitForJob(admin, (await box.daemon.jobs.enqueue('test.echo', { n: 1 }, id)).id, isFinished);
      const unfinished = await box.daemon.jobs.enqueue('test.gate', {}, id);
      offset = 6 * day;
      const recent = await waitForJob(admin, (await box.daemon.jobs.enqueue('test.echo', { n: 2 }, id)).id, isFinished);
      offset = 7 * day + 60_000;
      // The scheduler's hourly prune falls due by the moved clock and runs on its next tick.
      const deadline = Date.now() + 5000;
      while ((await admin.api.jobs.list()).some((j) => j.id === old.id)) {
        if (Date.now() > deadline) throw new Error('the old job was not removed');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await expectProblem(admin.api.jobs.get({ params: { id: old.id } }), 'jobs.job.not_found', 404);
      expect((await admin.api.jobs.list()).map((j) => j.id)).to.deep.equal([recent.id, unfinished.id]);
      kinds.open(unfinished.id);
    } finally {
      await box.close();
    }
  });
});
