import type { Sequelize } from 'sequelize';
import type { Area } from './areas/area.ts';
import type { AppsArea } from './areas/apps/apps.area.ts';
import { replicationTaskParts } from './areas/replication/tasks/tasks.area.ts';
import type { ReplicationRemote, ReplicationSend } from './areas/replication/tasks/tasks.jobs.ts';
import type { PairingInfo } from './areas/replication/tasks/tasks.service.ts';
import type { StorageArea } from './areas/storage/storage.area.ts';
import type { Clock } from './core/clock.ts';
import type { JobEngine } from './core/jobs/job-engine.ts';
import type { Logger } from './core/logger.ts';
import type { Scheduler } from './core/scheduler.ts';
import type { TopicPublisher } from './core/topics/topic-provider.ts';
import { CommandRunner } from './host/command-runner.ts';
import { ReplicationSnapshots } from './host/zfs-replication/source-snapshots.ts';

/**
 * What replication tasks need from the pairings and the send engine, which are built beside them
 * (issue 33). Until they are wired in, no pairing exists, so no task can be made and no run reaches
 * `send` or `remote`; tests hand in a pairing and a local `zfs send | zfs receive` here.
 */
export interface ReplicationSeams {
  pairing?: (id: number) => Promise<PairingInfo | null>;
  send?: ReplicationSend;
  remote?: ReplicationRemote;
}

const noEngine = (): never => {
  throw new Error('no replication engine is wired in');
};

/**
 * Builds the replication tasks once storage and apps exist, and carries the snapshot schedules'
 * hook to them (storage is built first, so the hook is bound before the tasks are).
 */
export class ReplicationTasksStep {
  private parts: ReturnType<typeof replicationTaskParts> | null = null;
  private logger: Logger | null = null;

  constructor(private readonly seams: ReplicationSeams = {}) {}

  /** The snapshot schedules took new snapshots of these datasets. */
  readonly snapshotsTaken = (datasets: string[]): void => {
    this.parts?.tasks.snapshotsTaken(datasets).catch((err: unknown) => {
      this.logger?.warn('replication tasks not started after snapshots', {
        logCode: 'replication.notStartedAfterSnapshots',
        component: 'replication',
        error: err instanceof Error ? err.message : String(err),
      });
    });
  };

  area(deps: {
    db: Sequelize;
    clock: Clock;
    logger: Logger;
    jobs: JobEngine;
    scheduler: Scheduler;
    topics: TopicPublisher;
    storage: StorageArea;
    apps: AppsArea;
    shares: { datasets(): Promise<{ dataset: string | null }[]> };
    zone: () => string;
  }): Area {
    const { storage, apps, seams } = { ...deps, seams: this.seams };
    this.logger = deps.logger;
    this.parts = replicationTaskParts({
      ...deps,
      // Homes are shares too; an app's volume is the dataset of its account.
      sourceDatasets: async () => [
        ...(await deps.shares.datasets()).flatMap((s) => (s.dataset ? [{ dataset: s.dataset, kind: 'share' as const }] : [])),
        ...(await apps.models.accounts.findAll()).flatMap((a) => (a.dataset ? [{ dataset: a.dataset, kind: 'app' as const }] : [])),
      ],
      datasetExists: (name) => storage.zfs.exists(name),
      pairing: seams.pairing ?? (async () => null),
      send: seams.send ?? noEngine,
      remote: seams.remote ?? { list: noEngine, destroy: noEngine },
      source: new ReplicationSnapshots(new CommandRunner(deps.logger, storage.applies)),
    });
    return { name: 'replication-tasks', routes: this.parts.routes, topics: this.parts.topics };
  }
}
