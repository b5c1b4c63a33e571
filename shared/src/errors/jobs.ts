import { defineErrors } from './catalog-entry.ts';

export const jobErrors = defineErrors({
  'jobs.job.not_found': { status: 404, title: 'There is no such job' },
  'jobs.job.interrupted': { status: 500, title: 'The job was interrupted by a restart of the box' },
  'jobs.job.cancelled': { status: 409, title: 'The job was cancelled' },
  'jobs.job.failed': { status: 500, title: 'The job failed' },
});
