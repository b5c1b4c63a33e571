import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { Logger } from '../../core/logger.ts';
import type { NewNotification } from './notifications.service.ts';

/**
 * The owner's notification of a failed job: code `jobs.failed` with the job's title (its code as
 * `job`, its params beside) and the problem's code, which the web renders in the reader's language.
 */
export function jobFailedNotification(job: Job): NewNotification {
  const problem = job.error?.code ?? 'server.internal.error';
  return {
    type: 'jobs.failed',
    level: 'error',
    code: 'jobs.failed',
    params: { ...job.title.params, job: job.title.code, problem, jobId: job.id },
    title: 'A task failed',
    body: `${job.kind} (job ${job.id}) failed: ${job.error?.detail ?? job.error?.title ?? problem}`,
  };
}

export async function notifyJobFailed(
  notifications: { notify(userId: number, n: NewNotification): Promise<unknown> },
  job: Job,
  logger: Logger,
): Promise<void> {
  if (job.userId === null) return;
  try {
    await notifications.notify(job.userId, jobFailedNotification(job));
  } catch (err) {
    logger.warn('failed job not notified', { component: 'jobs', jobId: job.id, error: err instanceof Error ? err.message : String(err) });
  }
}
