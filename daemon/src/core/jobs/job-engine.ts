import type { Sequelize } from 'sequelize';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import { systemClock, type Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import { ProblemError } from '../problem-error.ts';
import { currentContext } from '../request-context.ts';
import type { TopicPublisher } from '../topics/topic-provider.ts';
import { cancelReason, jobProblem, shutdownReason } from './job-outcome.ts';
import { initJobModel } from './job-row.ts';
import { JobRun, type QueuedJob } from './job-run.ts';
import { JobStore, toJob } from './job-store.ts';
import { mayReadJob, type JobKind, type JobReader } from './job-types.ts';

export interface JobEngineDeps {
  db: Sequelize;
  logger: Logger;
  publisher: TopicPublisher;
  /** Told when a user's job is created (`added`) or changes state (`changed`), never of progress alone: feeds the `jobs` topic. */
  userJobChanged?: (userId: number, type: 'added' | 'changed', job: Job) => void;
  clock?: Clock;
  /** Told once when a job fails (not when it is cancelled): the owner's notification. */
  jobFailed?: (job: Job) => void;
  /** Least time between two progress events of one job. */
  progressIntervalMs?: number;
  /** How long stop() waits for running jobs to give up. */
  stopTimeoutMs?: number;
}

export const listLimit = 100;
export const retentionMs = 7 * 24 * 60 * 60 * 1000;

interface RegisteredKind {
  concurrency: number;
  kind: JobKind<unknown, unknown>;
}

/**
 * Runs long work as persisted jobs: a queue per kind with a concurrency limit, progress
 * published on `jobs/<id>`, cancel by AbortSignal, recovery after a restart and retention.
 */
export class JobEngine {
  private readonly store: JobStore;
  private readonly clock: Clock;
  private readonly kinds = new Map<string, RegisteredKind>();
  private readonly queue: QueuedJob[] = [];
  private readonly running = new Map<number, { run: JobRun; ended: Promise<void> }>();
  private started = false;
  private stopping = false;

  constructor(private readonly deps: JobEngineDeps) {
    this.clock = deps.clock ?? systemClock;
    this.store = new JobStore(initJobModel(deps.db), this.clock);
  }

  /** Registers an area's job kind; queued jobs of it (also from before a restart) start once it is registered. */
  register<P, R>(kind: string, definition: JobKind<P, R>): void {
    if (this.kinds.has(kind)) throw new Error(`job kind ${kind} is already registered`);
    const concurrency = definition.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`job kind ${kind} needs a concurrency of at least 1`);
    this.kinds.set(kind, { concurrency, kind: definition as JobKind<unknown, unknown> });
    this.pump();
  }

  /** Queues a job and answers it as the API shows it (areas answer it with 202). Params are stored: never put a secret in them. */
  async enqueue<P>(kind: string, params: P, userId: number | null): Promise<Job> {
    const registered = this.kinds.get(kind);
    if (!registered) throw new Error(`job kind ${kind} is not registered`);
    const stored = JSON.stringify(params ?? null);
    const title = (await registered.kind.title?.(params)) ?? { code: kind, params: {} };
    const row = await this.store.create(kind, stored, title, userId, currentContext()?.requestId ?? null);
    const job = toJob(row);
    this.publish(job, 'added');
    this.queue.push({ id: row.id, kind, params: JSON.parse(stored), userId, requestId: row.requestId });
    this.pump();
    return job;
  }

  /** One job the reader may see; another user's job is answered as absent. */
  async get(id: number, reader: JobReader): Promise<Job> {
    const row = await this.store.find(id);
    if (!row || !mayReadJob(reader, row.userId)) throw new ProblemError('jobs.job.not_found', { id });
    return toJob(row, this.running.get(id)?.run.progress);
  }

  /** The reader's own most recent jobs, newest first. */
  async list(reader: JobReader): Promise<Job[]> {
    const rows = await this.store.listForUser(reader.id, listLimit);
    return rows.map((row) => toJob(row, this.running.get(row.id)?.run.progress));
  }

  /** Every queued and running job of every user, oldest first: what a restart or shut-down would cut. */
  async unfinished(): Promise<Job[]> {
    const rows = [...(await this.store.inState('running')), ...(await this.store.inState('queued'))].sort((a, b) => a.id - b.id);
    return rows.map((row) => toJob(row, this.running.get(row.id)?.run.progress));
  }

  /** Queued: cancelled at once. Running: asked to stop, cancelled once its work gives up. Finished: nothing changes. */
  async cancel(id: number, reader: JobReader): Promise<void> {
    await this.get(id, reader);
    const queuedAt = this.queue.findIndex((q) => q.id === id);
    if (queuedAt >= 0) {
      this.queue.splice(queuedAt, 1);
      const row = await this.store.find(id);
      if (!row) return;
      await this.store.finish(row, { state: 'cancelled' }, null);
      this.publish(toJob(row), 'changed');
      this.deps.logger.info('queued job cancelled', { logCode: 'jobs.queuedCancelled', component: 'jobs', jobId: id, kind: row.kind, task: toJob(row).title });
      return;
    }
    this.running.get(id)?.run.controller.abort(cancelReason());
  }

  /** After a crash or restart: jobs that were running failed (`jobs.job.interrupted`); queued ones run. */
  async start(): Promise<void> {
    for (const row of await this.store.inState('running')) {
      await this.store.finish(row, { state: 'failed', error: jobProblem(shutdownReason(), row.requestId ?? `job-${row.id}`) }, null);
      this.deps.logger.warn('job interrupted by a restart', {
        logCode: 'jobs.interrupted',
        component: 'jobs',
        jobId: row.id,
        kind: row.kind,
        task: toJob(row).title,
      });
    }
    for (const row of await this.store.inState('queued')) {
      // A kind nobody has registered yet waits queued (and can be cancelled) until an area registers it.
      if (!this.kinds.has(row.kind)) this.deps.logger.warn('queued job of a kind not registered yet', { component: 'jobs', jobId: row.id, kind: row.kind });
      this.queue.push({ id: row.id, kind: row.kind, params: JSON.parse(row.params), userId: row.userId, requestId: row.requestId });
    }
    this.started = true;
    this.pump();
  }

  /** On daemon close: no new job starts, running ones are asked to stop and end `jobs.job.interrupted`; queued ones stay queued. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const { run } of this.running.values()) run.controller.abort(shutdownReason());
    const ended = Promise.all([...this.running.values()].map((r) => r.ended));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.deps.stopTimeoutMs ?? 10_000)));
    await Promise.race([ended, timeout]);
    clearTimeout(timer);
  }

  /** Removes jobs finished more than 7 days ago; answers how many. */
  async prune(): Promise<number> {
    const removed = await this.store.prune(this.clock.now() - retentionMs);
    if (removed > 0) this.deps.logger.info('finished jobs removed after 7 days', { logCode: 'jobs.pruned', component: 'jobs', removed });
    return removed;
  }

  /** Starts every queued job whose kind has a free slot, oldest first. */
  private pump(): void {
    if (!this.started || this.stopping) return;
    const busy = new Map<string, number>();
    for (const { run } of this.running.values()) busy.set(run.job.kind, (busy.get(run.job.kind) ?? 0) + 1);
    for (let i = 0; i < this.queue.length;) {
      const job = this.queue[i] as QueuedJob;
      const registered = this.kinds.get(job.kind);
      const count = busy.get(job.kind) ?? 0;
      if (!registered || count >= registered.concurrency) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      busy.set(job.kind, count + 1);
      this.launch(job, registered);
    }
  }

  private launch(job: QueuedJob, registered: RegisteredKind): void {
    const run = new JobRun(job, {
      store: this.store,
      logger: this.deps.logger,
      publish: (view, stateChanged) => this.publish(view, stateChanged ? 'changed' : 'progress'),
      progressIntervalMs: this.deps.progressIntervalMs ?? 250,
    });
    const ended = run
      .execute(registered.kind)
      .catch((err: unknown) => {
        this.deps.logger.error('job bookkeeping failed', {
          logCode: 'jobs.bookkeepingFailed',
          component: 'jobs',
          jobId: job.id,
          error: err instanceof Error ? err.message : String(err),
        });
      })
      .finally(() => {
        this.running.delete(job.id);
        this.pump();
      });
    this.running.set(job.id, { run, ended });
  }

  private publish(job: Job, change: 'added' | 'changed' | 'progress'): void {
    this.deps.publisher.publish(topicName.job(job.id), 'changed', job);
    if (change === 'changed' && job.state === 'failed') this.deps.jobFailed?.(job);
    if (change !== 'progress' && job.userId !== null) this.deps.userJobChanged?.(job.userId, change, job);
  }
}
