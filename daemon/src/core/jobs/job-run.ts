import type { Job, JobProgress } from '../../../../shared/src/api/jobs/jobs.ts';
import type { Logger } from '../logger.ts';
import { runWithContext } from '../request-context.ts';
import { abortedOutcome, failedOutcome, succeededOutcome } from './job-outcome.ts';
import type { JobRow } from './job-row.ts';
import { toJob, type JobStore, type Outcome } from './job-store.ts';
import type { JobKind } from './job-types.ts';
import { ProgressThrottle } from './progress-throttle.ts';

/** A job taken from the queue: what is needed to run it, also after a restart. */
export interface QueuedJob {
  id: number;
  kind: string;
  params: unknown;
  userId: number | null;
  requestId: string | null;
}

export interface RunDeps {
  store: JobStore;
  logger: Logger;
  /** `stateChanged` is false for the throttled progress-only updates. */
  publish: (job: Job, stateChanged: boolean) => void;
  progressIntervalMs: number;
}

/** One running job: its abort switch, live progress and the promise of its end. */
export class JobRun {
  readonly controller = new AbortController();
  progress: JobProgress | null = null;
  private view: Job | null = null;
  private readonly throttle: ProgressThrottle;

  constructor(
    readonly job: QueuedJob,
    private readonly deps: RunDeps,
  ) {
    this.throttle = new ProgressThrottle(deps.progressIntervalMs, () => {
      if (this.view) this.deps.publish({ ...this.view, progress: this.progress }, false);
    });
  }

  /** Runs the job to its end and stores the outcome; never rejects for the job's own failures. */
  execute(kind: JobKind<unknown, unknown>): Promise<void> {
    // Log entries of the job carry the id of the request that started it, so the log search finds both.
    const requestId = this.job.requestId ?? `job-${this.job.id}`;
    return runWithContext({ requestId, ...(this.job.userId === null ? {} : { userId: this.job.userId }) }, () => this.runAndStore(kind, requestId));
  }

  private async runAndStore(kind: JobKind<unknown, unknown>, requestId: string): Promise<void> {
    const { store } = this.deps;
    const row = await store.find(this.job.id);
    if (!row) throw new Error(`job ${this.job.id} vanished from the jobs table`);
    // Every entry of the job names what it does (its title), so a log reader sees more than its id.
    const logger = this.deps.logger.child({ component: 'jobs', jobId: this.job.id, kind: this.job.kind, task: toJob(row).title });
    let outcome: Outcome;
    if (this.controller.signal.aborted) {
      outcome = abortedOutcome(this.controller.signal, requestId);
    } else {
      await store.markRunning(row);
      this.publishState(row);
      logger.info('job started', { logCode: 'jobs.started', jobId: this.job.id });
      outcome = await this.runHandler(kind, requestId, logger);
    }
    this.throttle.close();
    await store.finish(row, outcome, this.progress);
    this.publishState(row);
    logger.info('job finished', { logCode: 'jobs.finished', jobId: this.job.id, state: outcome.state });
  }

  private async runHandler(kind: JobKind<unknown, unknown>, requestId: string, logger: Logger): Promise<Outcome> {
    const signal = this.controller.signal;
    try {
      const result = await kind.run({
        jobId: this.job.id,
        params: this.job.params,
        userId: this.job.userId,
        progress: (done, total, unit) => this.report(done, total, unit),
        signal,
        logger,
      });
      return signal.aborted ? abortedOutcome(signal, requestId) : succeededOutcome(result);
    } catch (err) {
      return signal.aborted ? abortedOutcome(signal, requestId) : failedOutcome(err, requestId, logger);
    }
  }

  private report(done: number, total: number, unit: string): void {
    // Clamped so a sloppy handler cannot make the Job break its schema.
    const count = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);
    this.progress = { done: count(done), total: count(total), unit: String(unit) };
    this.throttle.report();
  }

  /** State changes are published at once, with the latest progress. */
  private publishState(row: JobRow): void {
    this.view = toJob(row, this.progress);
    this.throttle.published();
    this.deps.publish(this.view, true);
  }
}
