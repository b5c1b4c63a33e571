import Joi from 'joi';
import { hostToolErrors, id, isoTime } from '../common.ts';
import { jobSchema, jobStates, type JobState } from '../jobs/jobs.ts';
import { defineRoute } from '../route.ts';
import { datasetName } from '../storage/snapshots.ts';
import type { SnapshotKind } from '../storage/snapshots.ts';

/**
 * When a task runs: after each run of the snapshot schedules that took a snapshot of one of its
 * datasets, or once per period of its own (the periods of the snapshot schedules: an hour, or from
 * the box's midnight a day, a week from Monday, a month from the first).
 */
export type ReplicationSchedule = { kind: 'afterSnapshots' } | { kind: 'every'; period: SnapshotKind };

/** Which snapshots the target keeps of each dataset, independent of the source's schedules. */
export type ReplicationRetention = { kind: 'count'; count: number } | { kind: 'days'; days: number };

export interface ReplicationTaskInput {
  name: string;
  pairingId: number;
  /** Datasets of this box: a share's, a home's or an app volume's; never a pool root. */
  datasets: string[];
  /** Below the pairing's parent dataset on the target; each dataset lands at `<parent>/<targetSuffix>/<dataset>`. */
  targetSuffix: string;
  schedule: ReplicationSchedule;
  retention: ReplicationRetention;
  /** Bytes per second, or null for no limit. */
  bandwidthLimit: number | null;
  /** Whether the stream carries the datasets' properties (`zfs send -p`). */
  replicateProperties: boolean;
  enabled: boolean;
}

export type ReplicationTaskUpdate = Partial<ReplicationTaskInput>;

export interface ReplicationTask extends ReplicationTaskInput {
  id: number;
  lastRunAt: string | null;
  /** The next run of a task with its own times; null for a disabled task or one that follows the snapshot schedules. */
  nextRunAt: string | null;
  createdAt: string;
}

export interface ReplicationRun {
  jobId: number;
  state: JobState;
  startedAt: string | null;
  finishedAt: string | null;
  /** Bytes sent so far over every dataset of the run. */
  bytes: number;
  /** The newest snapshot the run brought to the target (full name), null until one arrived. */
  snapshot: string | null;
  /** The problem code of a failed run. */
  errorCode: string | null;
}

const periods = ['hourly', 'daily', 'weekly', 'monthly'] as const;
const gib = 1024 ** 3;

const schedule = Joi.alternatives()
  .try(
    Joi.object({ kind: Joi.string().valid('afterSnapshots').required() }),
    Joi.object({
      kind: Joi.string().valid('every').required(),
      period: Joi.string()
        .valid(...periods)
        .required(),
    }),
  )
  .id('ReplicationSchedule');

const retention = Joi.alternatives()
  .try(
    Joi.object({ kind: Joi.string().valid('count').required(), count: Joi.number().integer().min(1).max(10_000).required() }),
    Joi.object({ kind: Joi.string().valid('days').required(), days: Joi.number().integer().min(1).max(36_500).required() }),
  )
  .id('ReplicationRetention');

const fields = {
  name: Joi.string().trim().min(1).max(100),
  pairingId: id(),
  datasets: Joi.array().items(datasetName()).min(1).max(32).unique(),
  // The grammar of the receive command (receive-grammar.ts) is checked by the service, with its own code.
  targetSuffix: Joi.string().min(1).max(200),
  schedule,
  retention,
  bandwidthLimit: Joi.number()
    .integer()
    .min(1024)
    .max(100 * gib)
    .allow(null),
  replicateProperties: Joi.boolean(),
  enabled: Joi.boolean(),
};

const required = <T extends Record<string, Joi.Schema>>(f: T) => Object.fromEntries(Object.entries(f).map(([k, s]) => [k, s.required()])) as T;

export const replicationTaskInput = Joi.object<ReplicationTaskInput, true>(required(fields)).id('ReplicationTaskInput');
export const replicationTaskUpdate = Joi.object<ReplicationTaskUpdate, true>(fields).min(1).id('ReplicationTaskUpdate');
export const replicationTask = Joi.object<ReplicationTask, true>({
  ...required(fields),
  id: id().required(),
  lastRunAt: isoTime().allow(null).required(),
  nextRunAt: isoTime().allow(null).required(),
  createdAt: isoTime().required(),
}).id('ReplicationTask');

export const replicationRun = Joi.object<ReplicationRun, true>({
  jobId: id().required(),
  state: Joi.string()
    .valid(...jobStates)
    .required(),
  startedAt: isoTime().allow(null).required(),
  finishedAt: isoTime().allow(null).required(),
  bytes: Joi.number().integer().min(0).required(),
  snapshot: Joi.string().allow(null).required(),
  errorCode: Joi.string().allow(null).required(),
}).id('ReplicationRun');

const taskParams = Joi.object<{ taskId: number }, true>({ taskId: id().required() });
const base = '/api/storage/replication/tasks';
const inputErrors = [
  'replication.task.name_taken',
  'replication.task.pairing_not_found',
  'replication.task.dataset_not_found',
  'replication.task.dataset_forbidden',
  'replication.task.suffix_invalid',
  'replication.task.target_taken',
  ...hostToolErrors,
] as const;

export const replicationTasksRoutes = {
  list: defineRoute({
    id: 'replicationTasks.list',
    method: 'GET',
    path: base,
    access: 'admin',
    summary: 'Replication tasks with last and next run, by name; topic storage/replication/tasks',
    status: 200,
    response: Joi.array<ReplicationTask[]>().items(replicationTask),
    errors: [],
  }),
  create: defineRoute({
    id: 'replicationTasks.create',
    method: 'POST',
    path: base,
    access: 'admin',
    summary: "Creates a task sending datasets of this box (shares', homes', app volumes') to a paired box",
    body: replicationTaskInput,
    status: 201,
    response: replicationTask,
    errors: [...inputErrors],
  }),
  get: defineRoute({
    id: 'replicationTasks.get',
    method: 'GET',
    path: `${base}/{taskId}`,
    access: 'admin',
    summary: 'One replication task',
    params: taskParams,
    status: 200,
    response: replicationTask,
    errors: ['replication.task.not_found'],
  }),
  update: defineRoute({
    id: 'replicationTasks.update',
    method: 'PATCH',
    path: `${base}/{taskId}`,
    access: 'admin',
    summary: 'Changes the given fields of a task; the datasets and target are checked again',
    params: taskParams,
    body: replicationTaskUpdate,
    status: 200,
    response: replicationTask,
    errors: ['replication.task.not_found', ...inputErrors],
  }),
  delete: defineRoute({
    id: 'replicationTasks.delete',
    method: 'DELETE',
    path: `${base}/{taskId}`,
    access: 'admin',
    summary: 'Deletes a task and its run history; what the target holds stays there',
    params: taskParams,
    status: 204,
    errors: ['replication.task.not_found'],
  }),
  run: defineRoute({
    id: 'replicationTasks.run',
    method: 'POST',
    path: `${base}/{taskId}/runs`,
    access: 'admin',
    summary: 'Runs the task now (also a disabled one) as a job: each dataset full the first time, then incremental',
    params: taskParams,
    status: 202,
    response: jobSchema,
    errors: ['replication.task.not_found', 'replication.task.running'],
  }),
  runs: defineRoute({
    id: 'replicationTasks.runs',
    method: 'GET',
    path: `${base}/{taskId}/runs`,
    access: 'admin',
    summary: "The task's 50 most recent runs, newest first, with bytes, snapshot and the code of a failure",
    params: taskParams,
    status: 200,
    response: Joi.array<ReplicationRun[]>().items(replicationRun),
    errors: ['replication.task.not_found'],
  }),
};
