import type { ProblemBody } from '../../../../shared/src/api/common.ts';
import { problemBody } from '../problem-body.ts';
import type { Logger } from '../logger.ts';
import { ProblemError } from '../problem-error.ts';
import type { Outcome } from './job-store.ts';

/** The abort reasons the engine gives a job's signal: a user's cancel, or the daemon stopping. */
export const cancelReason = (): ProblemError => new ProblemError('jobs.job.cancelled');
export const shutdownReason = (): ProblemError => new ProblemError('jobs.job.interrupted');

export function jobProblem(err: ProblemError, requestId: string): ProblemBody {
  return problemBody(err, requestId);
}

/** How an aborted run ends: cancelled by a user, or failed `jobs.job.interrupted` by a stop of the daemon. */
export function abortedOutcome(signal: AbortSignal, requestId: string): Outcome {
  const reason: unknown = signal.reason;
  if (reason instanceof ProblemError && reason.code === 'jobs.job.interrupted') return { state: 'failed', error: jobProblem(reason, requestId) };
  return { state: 'cancelled' };
}

/** A result must be a JSON object: other values are wrapped so the Job shape holds. */
export function succeededOutcome(result: unknown): Outcome {
  if (result === undefined || result === null) return { state: 'succeeded', result: null };
  const json: unknown = JSON.parse(JSON.stringify(result));
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) return { state: 'succeeded', result: json as Record<string, unknown> };
  return { state: 'succeeded', result: { value: json } };
}

/** A ProblemError fails the job with that problem; anything else is logged and shown without internals. */
export function failedOutcome(err: unknown, requestId: string, logger: Logger): Outcome {
  if (err instanceof ProblemError) {
    logger.warn('job failed', { logCode: 'jobs.failed', code: err.code });
    return { state: 'failed', error: jobProblem(err, requestId) };
  }
  logger.error('job failed unexpectedly', {
    logCode: 'jobs.failedUnexpectedly',
    error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err),
  });
  return { state: 'failed', error: jobProblem(new ProblemError('server.internal.error'), requestId) };
}
