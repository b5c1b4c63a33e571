import type { JobTitle } from '../../../../shared/src/api/jobs/jobs.ts';
import type { Logger } from '../logger.ts';
import type { Principal } from '../principal.ts';

/** What a job kind's handler gets. */
export interface JobContext<P> {
  jobId: number;
  /** The params given to enqueue, as stored (a JSON round trip), so a run after a restart sees the same. */
  params: P;
  userId: number | null;
  /** Reports progress; clients see it throttled, so call it as often as is convenient. */
  progress: (done: number, total: number, unit: string) => void;
  /** Aborted when the job is cancelled or the daemon stops: stop the work and throw (or return). */
  signal: AbortSignal;
  logger: Logger;
}

/**
 * A job kind of an area. `run` answers the job's result (a JSON object, or nothing).
 * Throw a ProblemError to fail with that problem; anything else fails as server.internal.error.
 */
export interface JobKind<P, R> {
  /** How many jobs of this kind run at once; the rest wait queued. Default 1. */
  concurrency?: number;
  run: (ctx: JobContext<P>) => Promise<R>;
  /** What the job does, made once when it is queued (it may look names up); without it the title is the kind. */
  title?: (params: P) => JobTitle | Promise<JobTitle>;
}

/** Who reads jobs: their own, or every job for administrators. */
export type JobReader = Pick<Principal, 'id' | 'admin'>;

export function mayReadJob(reader: JobReader, userId: number | null): boolean {
  return reader.admin || userId === reader.id;
}
