import type { jobsRoutes } from '../../../../shared/src/api/jobs/jobs.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { JobsService } from './jobs.service.ts';

export function jobsHandlers(jobs: JobsService): AreaHandlers<typeof jobsRoutes> {
  return {
    list: ({ user }) => jobs.list(user),
    get: ({ params, user }) => jobs.get(params.id, user),
    cancel: ({ params, user }) => jobs.cancel(params.id, user),
  };
}
