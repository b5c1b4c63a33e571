import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import { topics } from '../../../../shared/src/topics.ts';
import type { Principal } from '../principal.ts';
import { ProblemError } from '../problem-error.ts';
import type { TopicProvider } from '../topics/topic-provider.ts';
import type { JobEngine } from './job-engine.ts';

function jobIdOf(topic: string): number {
  const id = topics.job.pattern.test(topic) ? Number(topic.slice('jobs/'.length)) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new ProblemError('jobs.job.not_found', { topic });
  return id;
}

/** `jobs/<id>`: readable by the job's user and by administrators; the snapshot is the Job. */
export function jobTopicProvider(jobs: Pick<JobEngine, 'get'>): TopicProvider {
  return {
    pattern: topics.job.pattern,
    subscribe: (principal: Principal, topic: string) => jobs.get(jobIdOf(topic), principal),
    async mayRead(principal: Principal, topic: string) {
      try {
        await jobs.get(jobIdOf(topic), principal);
        return true;
      } catch (err) {
        if (err instanceof ProblemError && err.code === 'jobs.job.not_found') return false;
        throw err;
      }
    },
  };
}

/** How many jobs the `jobs` snapshot holds at most: every unfinished one first counts towards it. */
export const jobsListSnapshotSize = 30;

/**
 * `jobs`: every user reads their own jobs only, administrators too (the tray shows one's own work;
 * GET /api/jobs/{id} still lets administrators read anyone's). Snapshot: the unfinished jobs and the
 * most recent finished ones, newest first, at most 30.
 */
export function jobsListTopicProvider(jobs: Pick<JobEngine, 'list'>): TopicProvider {
  return {
    pattern: topics.jobsList.pattern,
    async subscribe(principal: Principal) {
      const own = await jobs.list({ id: principal.id, admin: false });
      const unfinished = (job: Job) => job.state === 'queued' || job.state === 'running';
      let room = jobsListSnapshotSize - own.filter(unfinished).length;
      return own.filter((job) => unfinished(job) || room-- > 0);
    },
    mayRead: async () => true,
  };
}
