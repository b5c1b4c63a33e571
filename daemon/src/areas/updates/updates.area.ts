import path from 'node:path';
import { api } from '../../../../shared/src/api/index.ts';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import type { Mode } from '../../config/config.ts';
import type { Clock } from '../../core/clock.ts';
import type { JobKind } from '../../core/jobs/job-types.ts';
import type { Logger } from '../../core/logger.ts';
import { product } from '../../core/product.ts';
import type { Scheduler } from '../../core/scheduler.ts';
import { keysOfFile, trustedKeys } from '../../core/signed-index.ts';
import type { TopicPublisher } from '../../core/topics/topic-provider.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { CommandRunner } from '../../host/command-runner.ts';
import { buildCommit } from '../../host/machine-info.ts';
import { AptHost } from '../../host/updates/apt.ts';
import { findSystemDatasets, SystemSnapshots } from '../../host/updates/system-snapshots.ts';
import { defineArea } from '../area.ts';
import type { SystemSettingRow } from '../system/system-settings.model.ts';
import { UpdateChannelReader } from './channel.ts';
import { dailyCheck } from './daily-check.ts';
import { debianArchitecture } from './signed-release.ts';
import { updateJobs } from './updates.jobs.ts';
import { UpdatesStateStore } from './updates-state.ts';
import { updatesHandlers } from './updates.routes.ts';
import { installJobKind, restoreJobKind, UpdatesService } from './updates.service.ts';
import { updatesTopic } from './updates.topics.ts';

/** The project's channels; the daemon reads `<url>/<channel>/index.json`. */
export const projectChannelUrl = 'https://updates.cellar-nas.org/';

/** Seams of the updates area: a development daemon applies nothing unless a test sets `apply`. */
export interface UpdatesOptions {
  /** Apply updates (apt, dpkg, ZFS) even in development mode: root system tests. */
  apply: boolean;
  /** A Debian root that apt and dpkg work in (`chroot`), never this machine's own system. */
  root: string | null;
  /** The ZFS datasets snapshotted before an install; default: those holding /, /usr and /var on a box. */
  systemDatasets: string[] | null;
  /** Base URL of the channels; a development daemon reads none unless a test names one. */
  channelUrl: string | null;
  /** The Debian package that is the box (default `cellar`). */
  packageName: string;
  /** Debian's name of the box's architecture (default: Node's). */
  architecture: string;
  /** The daily check's delay after the check time; default a random part of the hour, chosen at start. */
  checkDelayMs: number | null;
}

export interface UpdatesAreaDeps {
  config: { mode: Mode; dataDir: string; trustedKeysFile: string | null; updateChannelUrl: string | null; updateKeysFile: string | null };
  /** `restart`: see DaemonOptions.restart; `updates`: the seams above. */
  options: { restart?: (reason?: 'restore' | 'package' | 'snapshot') => void; updates?: Partial<UpdatesOptions> };
  settings: typeof SystemSettingRow;
  clock: Clock;
  logger: Logger;
  topics: TopicPublisher;
  jobs: { register<P, R>(kind: string, definition: JobKind<P, R>): void; enqueue<P>(kind: string, params: P, userId: number | null): Promise<Job> };
  scheduler: Scheduler;
  /** The box's time zone: the daily check follows it. */
  time: { zone(): string };
}

const checkEveryMs = 60_000;
const hourMs = 3600_000;

/** Builds the updates area: host effects, the service, its two job kinds, its topic and the daily check. */
export async function createUpdatesArea(deps: UpdatesAreaDeps) {
  const { logger, clock } = deps;
  const box = deps.config.mode === 'box';
  const o: UpdatesOptions = {
    apply: box,
    root: null,
    systemDatasets: null,
    // The owner's own channel (a mirror, their own builds) from the config file, else the project's on a box.
    channelUrl: deps.config.updateChannelUrl ?? (box ? projectChannelUrl : null),
    packageName: 'cellar',
    architecture: debianArchitecture(),
    checkDelayMs: null,
    ...deps.options.updates,
  };
  const runner = new CommandRunner(logger, o.apply);
  // The config file's update keys are trusted for updates only: the Store's catalogs keep the project's.
  const { updateKeysFile } = deps.config;
  const keys = [...trustedKeys(deps.config.trustedKeysFile), ...(updateKeysFile === null ? [] : keysOfFile(updateKeysFile))];
  const datasets = o.systemDatasets ?? (o.apply ? await findSystemDatasets(runner) : []);
  const state = new UpdatesStateStore(deps.settings, () => clock.now());
  let commit: Promise<string | null> | null = null;
  const serviceDeps = {
    state,
    apt: new AptHost(runner, { root: o.root }),
    snapshots: new SystemSnapshots(runner, datasets),
    channel: o.channelUrl === null ? null : new UpdateChannelReader(o.channelUrl, keys),
    keys,
    enqueue: (kind: string, params: unknown, userId: number | null) => deps.jobs.enqueue(kind, params, userId),
    clock,
    logger,
    publish: (type: 'changed' | 'restarting', data: unknown) => deps.topics.publish(topicName.systemUpdates, type, data),
    applyConfigured: o.apply,
    packageName: o.packageName,
    product: { version: product.version, commit: () => (commit ??= buildCommit(runner)) },
    architecture: o.architecture,
    workDir: path.join(deps.config.dataDir, 'updates'),
    dataDir: deps.config.dataDir,
  };
  const updates = new UpdatesService(serviceDeps);
  const jobs = updateJobs({
    ...serviceDeps,
    service: updates,
    // After the job's answer is stored: a restart closes the job engine, which would cut a running job.
    restart: (reason) =>
      void setTimeout(() => {
        if (deps.options.restart) deps.options.restart(reason);
        else logger.warn('an update asked for a restart, and nothing restarts this daemon', { component: 'updates', reason });
      }, 1000).unref(),
  });
  deps.jobs.register(installJobKind, jobs.install);
  deps.jobs.register(restoreJobKind, jobs.restore);

  // Each box waits its own part of the hour after the check time, so not every box asks the channel at once.
  const delayMs = o.checkDelayMs ?? Math.floor(Math.random() * hourMs);
  const zone = () => deps.time.zone();
  deps.scheduler.every('updates.daily', checkEveryMs, dailyCheck({ updates, state, clock, logger, zone, delayMs }), { delayFirst: true });

  return defineArea({ name: 'updates', topics: [updatesTopic(updates)], routes: [tableRoutes(api.updates, updatesHandlers(updates))], updates });
}
