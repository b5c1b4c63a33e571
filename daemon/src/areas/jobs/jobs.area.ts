import { api } from '../../../../shared/src/api/index.ts';
import type { JobEngine } from '../../core/jobs/job-engine.ts';
import { jobsListTopicProvider, jobTopicProvider } from '../../core/jobs/job-topic.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea } from '../area.ts';
import { jobsHandlers } from './jobs.routes.ts';
import { JobsService } from './jobs.service.ts';

/**
 * The jobs area: the engine (core/jobs), which every other area registers its job kinds with, seen
 * over HTTP and on its topics. It starts before the areas after it in the daemon's list and stops
 * after them, so their jobs run only while it runs.
 */
export function createJobsArea(jobs: JobEngine) {
  return defineArea({
    name: 'jobs',
    routes: [tableRoutes(api.jobs, jobsHandlers(new JobsService({ jobs })))],
    topics: [jobTopicProvider(jobs), jobsListTopicProvider(jobs)],
    start: () => jobs.start(),
    close: () => jobs.stop(),
  });
}
