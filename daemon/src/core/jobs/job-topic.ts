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
