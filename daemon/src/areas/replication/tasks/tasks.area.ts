import type { Sequelize } from 'sequelize';
import { api } from '../../../../../shared/src/api/index.ts';
import { topicName } from '../../../../../shared/src/topics.ts';
import type { Clock } from '../../../core/clock.ts';
import type { JobEngine } from '../../../core/jobs/job-engine.ts';
import type { Logger } from '../../../core/logger.ts';
import type { Scheduler } from '../../../core/scheduler.ts';
import type { TopicPublisher } from '../../../core/topics/topic-provider.ts';
import { tableRoutes } from '../../../http/area-routes.ts';
import { runReplication, type ReplicationRemote, type ReplicationSend, type RunResult, type SourceSnapshots } from './tasks.jobs.ts';
import { initTaskModels } from './tasks.model.ts';
import { replicationTasksHandlers } from './tasks.routes.ts';
import { replicationRunJob, TasksService, type PairingInfo, type SourceDataset } from './tasks.service.ts';
import { replicationTasksTopic } from './tasks.topics.ts';

export interface ReplicationTaskDeps {
  db: Sequelize;
  clock: Clock;
  logger: Logger;
  jobs: JobEngine;
  scheduler: Scheduler;
  topics: TopicPublisher;
  /** The box's time zone: own times follow its wall clock. */
  zone?: () => string;
  /** Every dataset of this box a task may send: shares' (homes are shares) and app volumes'. */
  sourceDatasets(): Promise<SourceDataset[]>;
  datasetExists(name: string): Promise<boolean>;
  /** The pairing of an id on this box (the pairing service's lookup). */
  pairing(id: number): Promise<PairingInfo | null>;
  /** The send/receive engine and the target's side of a pairing. */
  send: ReplicationSend;
  remote: ReplicationRemote;
  source: SourceSnapshots;
}

const periodicMs = 60_000;
const progressEveryMs = 1000;

/**
 * Replication tasks (issue 33, docs/replication.md "Tasks"): the service, its routes, its topic,
 * the `replication.run` job kind and the periodic check of own times. The replication area
 * spreads `routes` and `topics` into its own; `tasks.snapshotsTaken` is the hook of the
 * storage area's snapshot schedules.
 */
export function replicationTaskParts(deps: ReplicationTaskDeps) {
  const publish = (type: string, data: unknown) => deps.topics.publish(topicName.replicationTasks, type, data);
  const tasks = new TasksService({
    models: initTaskModels(deps.db),
    clock: deps.clock,
    logger: deps.logger,
    zone: deps.zone,
    sourceDatasets: () => deps.sourceDatasets(),
    datasetExists: (name) => deps.datasetExists(name),
    pairing: (id) => deps.pairing(id),
    enqueue: (params, userId) => deps.jobs.enqueue(replicationRunJob, params, userId),
    job: (jobId) => deps.jobs.get(jobId, { id: 0, admin: true }).catch(() => null),
    publish: (event) => publish(event.type, event.data),
    deleted: async (taskId, datasets) => {
      for (const dataset of datasets) for (const snap of await deps.source.list(dataset)) await deps.source.release(taskId, snap.name);
    },
  });
  // Progress on the task topic at most once a second per run; the job's own topic carries every step.
  const lastProgress = new Map<number, number>();
  const progress = (taskId: number, jobId: number, bytes: number, total: number) => {
    const now = deps.clock.now();
    if (now - (lastProgress.get(jobId) ?? 0) < progressEveryMs) return;
    lastProgress.set(jobId, now);
    publish('progress', { taskId, jobId, bytes, total });
  };
  deps.jobs.register<{ taskId: number }, RunResult>(replicationRunJob, {
    // Runs of different tasks go side by side; two runs of one task never do (runNow refuses the second).
    concurrency: 2,
    run: async (ctx) => {
      try {
        return await runReplication({ tasks, send: deps.send, remote: deps.remote, source: deps.source, clock: deps.clock, progress }, ctx);
      } finally {
        lastProgress.delete(ctx.jobId);
      }
    },
    title: async (p) => ({ code: replicationRunJob, params: { name: (await tasks.task(p.taskId))?.name ?? String(p.taskId) } }),
  });
  // Only tasks someone made run: on a development daemon without a pairing there are none.
  deps.scheduler.every('replication.tasks', periodicMs, () => tasks.runDue());
  return {
    tasks,
    routes: [tableRoutes(api.replicationTasks, replicationTasksHandlers(tasks))],
    topics: [replicationTasksTopic(tasks)],
  };
}
