import Joi from 'joi';
import { id, idParams, isoTime, problemSchema, type ProblemBody } from '../common.ts';
import { defineRoute } from '../route.ts';

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export const jobStates: readonly JobState[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

export interface JobProgress {
  done: number;
  total: number;
  /** What done and total count: bytes, items, steps. */
  unit: string;
}

/**
 * What a job does, as a code the web translates (`jobs.title.<code>`) with its parameters, e.g.
 * `files.copy` with `{ count: 3, target: 'Family' }`; a kind without its own title has its kind as code.
 */
export interface JobTitle {
  code: string;
  params: Record<string, string | number>;
}

export interface Job {
  id: number;
  kind: string;
  title: JobTitle;
  state: JobState;
  progress: JobProgress | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error: ProblemBody | null;
  /** What the job produced, shaped by its kind; null until it succeeds. */
  result: Record<string, unknown> | null;
  userId: number | null;
}

export const jobProgress = Joi.object<JobProgress, true>({
  done: Joi.number().min(0).required(),
  total: Joi.number().min(0).required(),
  unit: Joi.string().required(),
}).id('JobProgress');

export const jobTitle = Joi.object<JobTitle, true>({
  code: Joi.string().required(),
  params: Joi.object().pattern(Joi.string(), [Joi.string(), Joi.number()]).required(),
}).id('JobTitle');

export const jobSchema = Joi.object<Job, true>({
  id: id().required(),
  kind: Joi.string().required(),
  title: jobTitle.required(),
  state: Joi.string()
    .valid(...jobStates)
    .required(),
  progress: jobProgress.allow(null).required(),
  createdAt: isoTime().required(),
  startedAt: isoTime().allow(null).required(),
  finishedAt: isoTime().allow(null).required(),
  error: problemSchema.allow(null).required(),
  result: Joi.object().unknown(true).allow(null).required(),
  userId: id().allow(null).required(),
}).id('Job');

export const jobsRoutes = {
  list: defineRoute({
    id: 'jobs.list',
    method: 'GET',
    path: '/api/jobs',
    access: 'user',
    summary: "The caller's 100 most recent jobs, newest first",
    status: 200,
    response: Joi.array<Job[]>().items(jobSchema),
    errors: [],
  }),
  get: defineRoute({
    id: 'jobs.get',
    method: 'GET',
    path: '/api/jobs/{id}',
    access: 'user',
    summary: 'One job; administrators read every job',
    params: idParams,
    status: 200,
    response: jobSchema,
    errors: ['jobs.job.not_found'],
  }),
  cancel: defineRoute({
    id: 'jobs.cancel',
    method: 'POST',
    path: '/api/jobs/{id}/cancel',
    access: 'user',
    summary: 'Cancels a queued job at once, asks a running one to stop; a finished job stays as it is',
    params: idParams,
    status: 204,
    errors: ['jobs.job.not_found'],
  }),
};
