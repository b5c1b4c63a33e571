import type {
  ReplicationRun,
  ReplicationSchedule,
  ReplicationTask,
  ReplicationTaskInput,
  ReplicationTaskUpdate,
  ReplicationRetention,
} from '../../../../../shared/src/api/replication/tasks.ts';
import type { Job } from '../../../../../shared/src/api/jobs/jobs.ts';
import type { ReplicationTasksEvent } from '../../../../../shared/src/topics.ts';
import type { Clock } from '../../../core/clock.ts';
import type { Logger } from '../../../core/logger.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import { maxSuffixDepth, maxSuffixLength, parseReceiveCommand } from '../receive-grammar.ts';
import type { TaskModels, TaskRow } from './tasks.model.ts';
import { nextTaskRun } from './tasks-schedule.ts';

export const replicationRunJob = 'replication.run';

/** A dataset of this box a task may send: a share's (homes are shares) or an app volume's. */
export interface SourceDataset {
  dataset: string;
  kind: 'share' | 'app';
}

/** A pairing as the tasks need it: the dataset on the target below which every task's datasets land. */
export interface PairingInfo {
  id: number;
  parent: string;
}

export interface TasksDeps {
  models: TaskModels;
  clock: Clock;
  logger: Logger;
  /** The box's time zone: own times follow its wall clock. */
  zone?: () => string;
  /** Every dataset of this box a task may send. */
  sourceDatasets(): Promise<SourceDataset[]>;
  /** Whether a dataset exists on this box (tells "not a share's" from "no such dataset"). */
  datasetExists(name: string): Promise<boolean>;
  /** The pairing of that id on this (the source) box, or null. */
  pairing(id: number): Promise<PairingInfo | null>;
  enqueue(params: { taskId: number }, userId: number | null): Promise<Job>;
  job(jobId: number): Promise<Job | null>;
  publish(event: ReplicationTasksEvent): void;
  /** A task was deleted: the holds it kept on its datasets' snapshots go, so the schedules can prune them again. */
  deleted(taskId: number, datasets: string[]): Promise<void>;
}

/** Where a source dataset lands below the pairing's parent: the task's suffix, then the dataset's full name (pools differ). */
export const targetSuffixOf = (taskSuffix: string, dataset: string) => `${taskSuffix}/${dataset}`;

const runsShown = 50;
const unfinished = new Set(['queued', 'running']);

/** Replication tasks: which datasets go to which pairing, when, and what the target keeps. */
export class TasksService {
  constructor(private readonly deps: TasksDeps) {}

  async list(): Promise<ReplicationTask[]> {
    return (await this.deps.models.tasks.findAll({ order: [['name', 'ASC']] })).map(toTask);
  }

  async get(taskId: number): Promise<ReplicationTask> {
    return toTask(await this.row(taskId));
  }

  async create(body: ReplicationTaskInput): Promise<ReplicationTask> {
    await this.check(body, null);
    const now = this.deps.clock.now();
    const row = await this.deps.models.tasks.create({
      ...columns(body),
      lastRunAt: null,
      nextRunAt: this.nextRun(body.schedule, body.enabled, now),
      createdAt: new Date(now).toISOString(),
    });
    this.deps.logger.info('replication task created', { logCode: 'replication.taskCreated', component: 'replication', taskId: row.id, name: row.name });
    await this.changed();
    return toTask(row);
  }

  async update(taskId: number, body: ReplicationTaskUpdate): Promise<ReplicationTask> {
    const row = await this.row(taskId);
    const merged: ReplicationTaskInput = { ...toTask(row), ...body };
    await this.check(merged, taskId);
    const timing = body.schedule !== undefined || body.enabled !== undefined;
    const from = row.lastRunAt ? Date.parse(row.lastRunAt) : this.deps.clock.now();
    await row.update({ ...columns(merged), ...(timing ? { nextRunAt: this.nextRun(merged.schedule, merged.enabled, from) } : {}) });
    this.deps.logger.info('replication task changed', {
      logCode: 'replication.taskChanged',
      component: 'replication',
      taskId,
      fields: Object.keys(body),
    });
    await this.changed();
    return toTask(row);
  }

  async delete(taskId: number): Promise<void> {
    const row = await this.row(taskId);
    await row.destroy();
    await this.deps.deleted(taskId, parse<string[]>(row.datasets));
    this.deps.logger.info('replication task deleted', { logCode: 'replication.taskDeleted', component: 'replication', taskId, name: row.name });
    await this.changed();
  }

  /** Queues a run unless one of the task is queued or running. */
  async runNow(taskId: number, userId: number | null): Promise<Job> {
    await this.row(taskId);
    const pending = await this.pendingRun(taskId);
    if (pending) throw new ProblemError('replication.task.running', { taskId, jobId: pending.id });
    const job = await this.deps.enqueue({ taskId }, userId);
    // INSERT OR IGNORE: a quick run may already have written what it brought.
    await this.deps.models.runs.bulkCreate([{ jobId: job.id, taskId, bytes: 0, snapshot: null }], { ignoreDuplicates: true });
    return job;
  }

  async runs(taskId: number): Promise<ReplicationRun[]> {
    await this.row(taskId);
    const rows = await this.deps.models.runs.findAll({ where: { taskId }, order: [['jobId', 'DESC']], limit: runsShown });
    const runs: ReplicationRun[] = [];
    for (const r of rows) {
      const job = await this.deps.job(r.jobId);
      if (!job) continue;
      runs.push({
        jobId: r.jobId,
        state: job.state,
        startedAt: job.startedAt,
        finishedAt: job.finishedAt,
        bytes: r.bytes,
        snapshot: r.snapshot,
        errorCode: job.error?.code ?? null,
      });
    }
    return runs;
  }

  /** Queues every enabled task with its own times whose time has come, and plans its next run. */
  async runDue(): Promise<void> {
    const now = this.deps.clock.now();
    for (const row of await this.deps.models.tasks.findAll({ where: { enabled: true } })) {
      if (row.nextRunAt === null || Date.parse(row.nextRunAt) > now) continue;
      await this.trigger(row, 'schedule');
      await row.update({ nextRunAt: this.nextRun(parse<ReplicationSchedule>(row.schedule), true, now) });
    }
    await this.changed();
  }

  /** The snapshot schedules took new snapshots of these datasets: the enabled tasks that follow them and send one of them run. */
  async snapshotsTaken(datasets: readonly string[]): Promise<void> {
    const taken = new Set(datasets);
    for (const row of await this.deps.models.tasks.findAll({ where: { enabled: true } })) {
      if (parse<ReplicationSchedule>(row.schedule).kind !== 'afterSnapshots') continue;
      if (parse<string[]>(row.datasets).some((d) => taken.has(d))) await this.trigger(row, 'snapshots');
    }
  }

  /** For the run: the task as it is now, or null once deleted. */
  async task(taskId: number): Promise<ReplicationTask | null> {
    const row = await this.deps.models.tasks.findByPk(taskId);
    return row ? toTask(row) : null;
  }

  /** A run started: the task shows it as its last run. */
  async runStarted(taskId: number): Promise<void> {
    await this.deps.models.tasks.update({ lastRunAt: new Date(this.deps.clock.now()).toISOString() }, { where: { id: taskId } });
    await this.changed();
  }

  /** What a run brought so far (kept when it later fails). */
  async runProgress(jobId: number, taskId: number, bytes: number, snapshot: string): Promise<void> {
    // An upsert: the job may reach here before runNow wrote the run's row.
    await this.deps.models.runs.upsert({ jobId, taskId, bytes, snapshot });
  }

  sourceDatasets(): Promise<SourceDataset[]> {
    return this.deps.sourceDatasets();
  }

  pairing(id: number): Promise<PairingInfo | null> {
    return this.deps.pairing(id);
  }

  private async trigger(row: TaskRow, why: 'schedule' | 'snapshots'): Promise<void> {
    try {
      await this.runNow(row.id, null);
    } catch (err) {
      // A run still going is the usual case of a slow link: this turn is skipped, not piled up.
      if (!(err instanceof ProblemError && err.code === 'replication.task.running')) throw err;
      this.deps.logger.info('replication run skipped: the last one still runs', {
        logCode: 'replication.runSkipped',
        component: 'replication',
        taskId: row.id,
        why,
      });
    }
  }

  private async pendingRun(taskId: number): Promise<Job | null> {
    for (const r of await this.deps.models.runs.findAll({ where: { taskId }, order: [['jobId', 'DESC']], limit: 5 })) {
      const job = await this.deps.job(r.jobId);
      if (job && unfinished.has(job.state)) return job;
    }
    return null;
  }

  private nextRun(schedule: ReplicationSchedule, enabled: boolean, from: number): string | null {
    const next = enabled ? nextTaskRun(schedule, from, this.deps.zone?.() ?? 'UTC') : null;
    return next === null ? null : new Date(next).toISOString();
  }

  private async row(taskId: number): Promise<TaskRow> {
    const row = await this.deps.models.tasks.findByPk(taskId);
    if (!row) throw new ProblemError('replication.task.not_found', { taskId });
    return row;
  }

  private async changed(): Promise<void> {
    this.deps.publish({ type: 'changed', data: await this.list() });
  }

  /** Every rule of a task's fields: the name, the pairing, each dataset and where it lands on the target. */
  private async check(body: ReplicationTaskInput, taskId: number | null): Promise<void> {
    const others = (await this.deps.models.tasks.findAll()).filter((r) => r.id !== taskId);
    if (others.some((r) => r.name === body.name)) throw new ProblemError('replication.task.name_taken', { name: body.name });
    const pairing = await this.deps.pairing(body.pairingId);
    if (!pairing) throw new ProblemError('replication.task.pairing_not_found', { pairingId: body.pairingId });
    const sources = new Map((await this.deps.sourceDatasets()).map((s) => [s.dataset, s]));
    for (const dataset of body.datasets) {
      if (!dataset.includes('/')) throw new ProblemError('replication.task.dataset_forbidden', { dataset, reason: 'poolRoot' });
      if (sources.has(dataset)) continue;
      // A dataset that exists but belongs to no share, home or app: a pool's own, a clone, or another box's replica received here.
      if (await this.deps.datasetExists(dataset)) throw new ProblemError('replication.task.dataset_forbidden', { dataset, reason: 'notShared' });
      throw new ProblemError('replication.task.dataset_not_found', { dataset });
    }
    for (const dataset of body.datasets) checkSuffix(body.targetSuffix, dataset, pairing.parent);
    const mine = new Set(body.datasets.map((d) => targetSuffixOf(body.targetSuffix, d)));
    for (const other of others.filter((r) => r.pairingId === body.pairingId)) {
      const taken = parse<string[]>(other.datasets)
        .map((d) => targetSuffixOf(other.targetSuffix, d))
        .find((t) => mine.has(t));
      if (taken) throw new ProblemError('replication.task.target_taken', { target: `${pairing.parent}/${taken}`, taskId: other.id });
    }
  }
}

/** The suffix a dataset is received into must pass the target's forced command (receive-grammar.ts), which checks it again there. */
function checkSuffix(taskSuffix: string, dataset: string, parent: string): void {
  for (const suffix of [taskSuffix, targetSuffixOf(taskSuffix, dataset)]) {
    if (!('refused' in parseReceiveCommand(`receive ${suffix}`, parent))) continue;
    const reason = suffix.length > maxSuffixLength ? 'tooLong' : suffix.split('/').length > maxSuffixDepth ? 'tooDeep' : 'form';
    throw new ProblemError('replication.task.suffix_invalid', { suffix: taskSuffix, reason });
  }
}

const parse = <T>(json: string) => JSON.parse(json) as T;

function columns(body: ReplicationTaskInput) {
  return {
    name: body.name,
    pairingId: body.pairingId,
    datasets: JSON.stringify(body.datasets),
    targetSuffix: body.targetSuffix,
    schedule: JSON.stringify(body.schedule),
    retention: JSON.stringify(body.retention),
    bandwidthLimit: body.bandwidthLimit,
    replicateProperties: body.replicateProperties,
    enabled: body.enabled,
  };
}

function toTask(row: TaskRow): ReplicationTask {
  return {
    id: row.id,
    name: row.name,
    pairingId: row.pairingId,
    datasets: parse<string[]>(row.datasets),
    targetSuffix: row.targetSuffix,
    schedule: parse<ReplicationSchedule>(row.schedule),
    retention: parse<ReplicationRetention>(row.retention),
    bandwidthLimit: row.bandwidthLimit,
    replicateProperties: Boolean(row.replicateProperties),
    enabled: Boolean(row.enabled),
    lastRunAt: row.lastRunAt,
    nextRunAt: row.nextRunAt,
    createdAt: row.createdAt,
  };
}
