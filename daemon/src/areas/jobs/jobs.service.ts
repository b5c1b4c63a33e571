import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { JobEngine } from '../../core/jobs/job-engine.ts';
import type { JobReader } from '../../core/jobs/job-types.ts';

export interface JobsDeps {
  jobs: Pick<JobEngine, 'get' | 'list' | 'cancel'>;
}

/** The Jobs API over the engine: every rule (ownership, cancel states, the 100 limit) lives in the engine. */
export class JobsService {
  constructor(private readonly deps: JobsDeps) {}

  list(reader: JobReader): Promise<Job[]> {
    return this.deps.jobs.list(reader);
  }

  get(id: number, reader: JobReader): Promise<Job> {
    return this.deps.jobs.get(id, reader);
  }

  cancel(id: number, reader: JobReader): Promise<void> {
    return this.deps.jobs.cancel(id, reader);
  }
}
