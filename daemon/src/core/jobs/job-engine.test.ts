import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import { openDatabase } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { createLogger } from '../logger.ts';
import { ProblemError } from '../problem-error.ts';
import { JobEngine, type JobEngineDeps } from './job-engine.ts';

const logger = createLogger({ level: 'error', console: false, sinks: [] });
const alice = { id: 1, admin: false };
const bob = { id: 2, admin: false };
const admin = { id: 3, admin: true };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** A handler the test opens by hand; it also gives up (after `giveUpMs`) when its signal aborts. */
function gate(giveUpMs = 0) {
  const started: number[] = [];
  const opened = new Set<number>();
  const waiters = new Map<number, () => void>();
  return {
    started,
    open(jobId: number) {
      opened.add(jobId);
      waiters.get(jobId)?.();
    },
    kind: (concurrency = 1) => ({
      concurrency,
      run: async ({ jobId, signal }: { jobId: number; signal: AbortSignal }) => {
        started.push(jobId);
        if (!opened.has(jobId)) {
          await new Promise<void>((resolve, reject) => {
            waiters.set(jobId, resolve);
            signal.addEventListener('abort', () => setTimeout(() => reject(signal.reason), giveUpMs));
          });
        }
        return { jobId };
      },
    }),
  };
}

describe('JobEngine', () => {
  let dir: string;
  let db: Sequelize;
  let events: Job[];
  let engines: JobEngine[];

  const engine = (extra: Partial<JobEngineDeps> = {}) => {
    const e = new JobEngine({
      db,
      logger,
      publisher: { publish: (_topic, _type, data) => events.push(data as Job) },
      progressIntervalMs: 50,
      stopTimeoutMs: 2000,
      ...extra,
    });
    engines.push(e);
    return e;
  };
  const stateOf = (jobs: JobEngine, id: number) => jobs.get(id, admin).then((j) => j.state);
  const finished = (jobs: JobEngine, id: number) =>
    waitFor(
      async () => ((await stateOf(jobs, id)) === 'queued' || (await stateOf(jobs, id)) === 'running' ? undefined : jobs.get(id, admin)),
      `job ${id} to finish`,
    );

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-jobs-'));
    db = await openDatabase(path.join(dir, 'db.sqlite'), logger);
    await migrate(db, logger);
    for (const [name, isAdmin] of [
      ['alice', 0],
      ['bob', 0],
      ['root', 1],
    ] as const) {
      await db.query("INSERT INTO users (username, password_hash, admin, created_at, updated_at) VALUES (?, 'x', ?, '2026-01-01', '2026-01-01')", {
        replacements: [name, isAdmin],
      });
    }
    events = [];
    engines = [];
  });

  afterEach(async () => {
    for (const e of engines) await e.stop();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a job to success with its result, publishing every state change', async () => {
    const jobs = engine();
    jobs.register<{ name: string }, { greeting: string }>('test.greet', {
      run: async ({ params, userId }) => ({ greeting: `hello ${params.name} from ${userId}` }),
    });
    await jobs.start();
    const queued = await jobs.enqueue('test.greet', { name: 'disk' }, alice.id);
    expect(queued).to.include({ kind: 'test.greet', state: 'queued', userId: 1, startedAt: null, finishedAt: null, result: null, error: null });
    const done = await finished(jobs, queued.id);
    expect(done.state).to.equal('succeeded');
    expect(done.result).to.deep.equal({ greeting: 'hello disk from 1' });
    expect(done.startedAt).to.be.a('string');
    expect(events.map((e) => e.state)).to.deep.equal(['queued', 'running', 'succeeded']);
  });

  it('never runs more jobs of a kind at once than its concurrency; other kinds are not held up', async () => {
    const jobs = engine();
    const copies = gate();
    const other = gate();
    let now = 0;
    let peak = 0;
    jobs.register('test.copy', {
      concurrency: 2,
      run: async (ctx) => {
        now++;
        peak = Math.max(peak, now);
        try {
          return await copies.kind().run(ctx);
        } finally {
          now--;
        }
      },
    });
    jobs.register('test.other', other.kind());
    await jobs.start();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await jobs.enqueue('test.copy', {}, alice.id)).id);
    const otherJob = await jobs.enqueue('test.other', {}, alice.id);
    await waitFor(() => (copies.started.length === 2 && other.started.length === 1 ? true : undefined), 'two copies and the other kind running');
    expect(await Promise.all(ids.map((id) => stateOf(jobs, id)))).to.deep.equal(['running', 'running', 'queued', 'queued', 'queued']);
    for (const id of ids) {
      await waitFor(() => (copies.started.includes(id) ? true : undefined), `job ${id} to start`);
      copies.open(id);
    }
    for (const id of ids) expect((await finished(jobs, id)).state).to.equal('succeeded');
    expect(peak).to.equal(2);
    // The first two queued start first; jobs launched together into freed slots may reach their
    // work in either order (each first records its start in the database).
    expect(copies.started.slice(0, 2)).to.deep.equal(ids.slice(0, 2));
    expect([...copies.started].sort((a, b) => a - b)).to.deep.equal(ids);
    other.open(otherJob.id);
  });

  it('cancels a queued job at once; its work never starts', async () => {
    const jobs = engine();
    const g = gate();
    jobs.register('test.wait', g.kind());
    await jobs.start();
    const first = await jobs.enqueue('test.wait', {}, alice.id);
    const second = await jobs.enqueue('test.wait', {}, alice.id);
    await jobs.cancel(second.id, alice);
    const cancelled = await jobs.get(second.id, alice);
    expect(cancelled).to.include({ state: 'cancelled', startedAt: null });
    expect(cancelled.finishedAt).to.be.a('string');
    expect(events.filter((e) => e.id === second.id).map((e) => e.state)).to.deep.equal(['queued', 'cancelled']);
    g.open(first.id);
    await finished(jobs, first.id);
    expect(g.started).to.deep.equal([first.id]);
  });

  it('asks a running job to stop and marks it cancelled only once its work gives up', async () => {
    const jobs = engine();
    const g = gate(150);
    jobs.register('test.wait', g.kind());
    await jobs.start();
    const job = await jobs.enqueue('test.wait', {}, alice.id);
    await waitFor(() => (g.started.length ? true : undefined), 'the job to start');
    await jobs.cancel(job.id, alice);
    expect(await stateOf(jobs, job.id)).to.equal('running');
    const done = await finished(jobs, job.id);
    expect(done).to.include({ state: 'cancelled', error: null, result: null });
  });

  it('leaves a finished job exactly as it was on cancel', async () => {
    const jobs = engine();
    jobs.register('test.quick', { run: async () => ({ ok: true }) });
    await jobs.start();
    const job = await jobs.enqueue('test.quick', {}, alice.id);
    const before = await finished(jobs, job.id);
    const published = events.length;
    await jobs.cancel(job.id, alice);
    expect(await jobs.get(job.id, alice)).to.deep.equal(before);
    expect(events.length).to.equal(published);
  });

  it('fails with the ProblemError a handler throws, and hides any other error behind server.internal.error', async () => {
    const jobs = engine();
    jobs.register('test.problem', { run: async () => Promise.reject(new ProblemError('jobs.job.failed', { step: 3 })) });
    jobs.register('test.crash', { run: async () => Promise.reject(new Error('SQLITE_CORRUPT at /secret/path')) });
    await jobs.start();
    const problem = await finished(jobs, (await jobs.enqueue('test.problem', {}, alice.id)).id);
    expect(problem.state).to.equal('failed');
    expect(problem.error).to.include({ code: 'jobs.job.failed', status: 500 });
    expect(problem.error?.params).to.deep.equal({ step: 3 });
    const crash = await finished(jobs, (await jobs.enqueue('test.crash', {}, alice.id)).id);
    expect(crash.error).to.include({ code: 'server.internal.error', status: 500 });
    expect(JSON.stringify(crash.error)).to.not.include('SQLITE_CORRUPT').and.not.include('/secret/path');
    expect(crash.error?.requestId).to.equal(`job-${crash.id}`);
  });

  it("answers jobs.job.not_found for another user's job, to read and to cancel; administrators read every job", async () => {
    const jobs = engine();
    jobs.register('test.quick', { run: async () => ({}) });
    await jobs.start();
    const job = await jobs.enqueue('test.quick', {}, alice.id);
    await finished(jobs, job.id);
    for (const attempt of [() => jobs.get(job.id, bob), () => jobs.cancel(job.id, bob), () => jobs.get(999, alice)]) {
      const err = await attempt().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(ProblemError).and.to.include({ code: 'jobs.job.not_found' });
    }
    expect((await jobs.get(job.id, admin)).id).to.equal(job.id);
    expect(await jobs.list(bob)).to.deep.equal([]);
    expect((await jobs.list(alice)).map((j) => j.id)).to.deep.equal([job.id]);
  });

  it('throttles progress events of a fast job but keeps the last value', async () => {
    const jobs = engine({ progressIntervalMs: 100 });
    jobs.register('test.fast', {
      run: async ({ progress }) => {
        const started = Date.now();
        let done = 0;
        while (Date.now() - started < 300) {
          progress(++done, 1_000_000, 'items');
          await sleep(0);
        }
        return { done };
      },
    });
    await jobs.start();
    const job = await finished(jobs, (await jobs.enqueue('test.fast', {}, alice.id)).id);
    const progressEvents = events.filter((e) => e.state === 'running' && e.progress !== null);
    expect(progressEvents.length).to.be.within(2, 5);
    expect(job.progress).to.deep.equal({ done: job.result?.done, total: 1_000_000, unit: 'items' });
    expect(events.at(-1)?.progress).to.deep.equal(job.progress);
  });

  it('ends running jobs as jobs.job.interrupted on stop and runs the queued ones after a restart', async () => {
    const first = engine();
    const g = gate();
    first.register('test.wait', g.kind());
    await first.start();
    const running = await first.enqueue('test.wait', { n: 1 }, alice.id);
    const queued = await first.enqueue('test.wait', { n: 2 }, alice.id);
    await waitFor(() => (g.started.length ? true : undefined), 'the first job to start');
    await first.stop();
    expect((await first.get(running.id, admin)).error).to.include({ code: 'jobs.job.interrupted' });
    expect(await stateOf(first, queued.id)).to.equal('queued');

    const second = engine();
    const seen: unknown[] = [];
    second.register('test.wait', { run: async ({ params }) => (seen.push(params), { ran: true }) });
    await second.start();
    expect((await finished(second, queued.id)).state).to.equal('succeeded');
    expect(seen).to.deep.equal([{ n: 2 }]);
  });

  it('fails jobs a crash left running, on the next start', async () => {
    const jobs = engine();
    jobs.register('test.quick', { run: async () => ({}) });
    await db.query(
      "INSERT INTO jobs (kind, state, params, user_id, created_at, started_at) VALUES ('test.quick', 'running', '{}', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z')",
    );
    await jobs.start();
    const [crashed] = await jobs.list(alice);
    expect(crashed).to.include({ state: 'failed' });
    expect(crashed?.error).to.include({ code: 'jobs.job.interrupted', status: 500 });
    expect(crashed?.finishedAt).to.be.a('string');
  });

  it('removes jobs finished more than 7 days ago and keeps the rest', async () => {
    let now = Date.parse('2026-11-01T00:00:00Z');
    const jobs = engine({ clock: { now: () => now } });
    const g = gate();
    jobs.register('test.quick', { run: async () => ({}) });
    jobs.register('test.wait', g.kind());
    await jobs.start();
    const old = await finished(jobs, (await jobs.enqueue('test.quick', {}, alice.id)).id);
    const stillRunning = await jobs.enqueue('test.wait', {}, alice.id);
    now += 6 * 24 * 3600_000;
    const recent = await finished(jobs, (await jobs.enqueue('test.quick', {}, alice.id)).id);
    now += 24 * 3600_000 + 1;
    expect(await jobs.prune()).to.equal(1);
    expect((await jobs.list(alice)).map((j) => j.id)).to.deep.equal([recent.id, stillRunning.id]);
    expect(old.id).to.be.below(stillRunning.id);
    g.open(stillRunning.id);
  });
});
