import type { Sequelize } from 'sequelize';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { PoolList, Vdev } from '../../../../shared/src/api/storage/storage.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import type { Mode } from '../../config/config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { TopicPublisher } from '../../core/topics/topic-provider.ts';
import { api } from '../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { kernelName } from '../../host/block-names.ts';
import { SshHostKeys } from '../../host/ssh-host-keys.ts';
import { CommandRunner } from '../../host/command-runner.ts';
import { readCounters } from '../../host/resource-counters.ts';
import { TimeHost } from '../../host/time/time-host.ts';
import type { NetworkAreaOptions } from '../network/network.area.ts';
import { backupHostOptions, type BackupHostOptions } from '../backup-part.ts';
import { defineArea } from '../area.ts';
import type { FirstRunSetup } from './first-run.ts';
import { monitorTopic } from './monitor.topics.ts';
import { OverviewService } from './overview.service.ts';
import { SessionsService, type SessionsDeps } from './sessions.service.ts';
import { PowerService } from './power.service.ts';
import { regionBackupPart } from './region.backup.ts';
import { ResourceMonitor } from './resource-monitor.ts';
import { sshBackupPart } from './ssh.backup.ts';
import type { SystemSettingRow } from './system-settings.model.ts';
import { systemOverviewHandlers, systemTimeHandlers } from './system-host.routes.ts';
import { firstRunHandlers, systemHandlers } from './system.routes.ts';
import type { SystemService } from './system.service.ts';
import { TimeService } from './time.service.ts';

/** Seams of the System area's host effects for tests. */
export interface SystemHostOptions {
  /** Writes the zone files and chrony's configuration under this folder, even in development mode. */
  root?: string;
  /** Time between a power request's answer and the act (default 5 s). */
  powerDelayMs?: number;
  /** Network seams (the network area's, given with the system's): a root folder for networkd files and a namespace for `ip` (root system tests). */
  network?: NetworkAreaOptions;
}

export interface SystemAreaDeps {
  mode: Mode;
  db: Sequelize;
  /** The system service and the first-run setup, built before identity (which reads the language). */
  system: SystemService;
  setup: FirstRunSetup;
  /** A box from the package, or a test's development daemon, waits for its owner with a setup code. */
  prepareSetup: boolean;
  dataDir: string;
  startedAt: number;
  settings: typeof SystemSettingRow;
  clock: Clock;
  logger: Logger;
  topics: TopicPublisher & { listenerCount(topic: string): number };
  unfinishedJobs(): Promise<Job[]>;
  /** The zone changed: the storage area's schedules move with it. */
  zoneChanged(from: string, to: string): Promise<void>;
  /** The pools as last read, for each pool's disk throughput. */
  pools(): PoolList | null;
  /** Who is signed in and the open SMB sessions (Overview). */
  sessions: SessionsDeps;
  options?: SystemHostOptions;
  /** Where the SSH host keys of the ssh backup part are read and written, and how sshd reloads them. */
  backupHost?: BackupHostOptions;
}

function leaves(vdevs: readonly Vdev[]): string[] {
  return vdevs.flatMap((v) => (v.children.length === 0 ? [v.name] : leaves(v.children)));
}

/** The System area: status, region and first run; time, overview, resource monitor and power, which touch the machine. */
export async function createSystemArea(deps: SystemAreaDeps) {
  const { logger, clock, mode } = deps;
  const box = mode === 'box';
  const runner = new CommandRunner(logger, box);
  const root = deps.options?.root;
  const time = new TimeService({
    host: new TimeHost({ root: root ?? '/', writeFiles: box || root !== undefined, runner, logger }),
    settings: deps.settings,
    clock,
    logger,
    zoneChanged: deps.zoneChanged,
  });
  await time.init();
  const overview = new OverviewService({ runner, startedAt: deps.startedAt });
  const sessions = new SessionsService(deps.sessions);
  const power = new PowerService({ runner, unfinishedJobs: deps.unfinishedJobs, clock, logger, delayMs: deps.options?.powerDelayMs ?? 5000 });
  // Pool members change rarely: resolved again only when the pools were read again.
  let members: { readAt: string; map: Map<string, string[]> } | null = null;
  const poolMembers = async (): Promise<Map<string, string[]>> => {
    const list = deps.pools();
    if (!list) return new Map();
    if (members?.readAt !== list.readAt) {
      const map = new Map<string, string[]>();
      for (const pool of list.pools) {
        const names = await Promise.all(leaves(pool.vdevGroups.flatMap((g) => g.vdevs)).map(kernelName));
        map.set(
          pool.name,
          names.filter((n): n is string => n !== null),
        );
      }
      members = { readAt: list.readAt, map };
    }
    return members.map;
  };
  const monitor = new ResourceMonitor({
    read: readCounters,
    poolMembers,
    listeners: () => deps.topics.listenerCount(topicName.systemMonitor),
    publish: (sample) => deps.topics.publish(topicName.systemMonitor, 'sample', sample),
    clock,
    logger,
  });
  return defineArea({
    name: 'system',
    topics: [monitorTopic(monitor)],
    routes: [
      tableRoutes(api.system, systemHandlers(deps.system)),
      tableRoutes(api.firstRun, firstRunHandlers(deps.setup)),
      tableRoutes(api.systemTime, systemTimeHandlers(time)),
      tableRoutes(api.systemOverview, systemOverviewHandlers(overview, power, sessions)),
    ],
    backupPart: [regionBackupPart({ db: deps.db, system: deps.system }), sshPart(deps.backupHost ?? backupHostOptions(mode), logger)],
    time,
    power,
    monitor,
    async start(): Promise<void> {
      if (deps.prepareSetup) await deps.setup.prepare();
    },
    close(): void {
      monitor.close();
      power.close();
    },
  });
}

/** The box's SSH host keys (the ssh part): sshd serves SFTP with them, and reads restored ones only when it reloads. */
function sshPart(host: BackupHostOptions, logger: Logger) {
  const runner = new CommandRunner(logger, host.applyHost);
  const reload = async () => void (host.sshReload && (await runner.run(host.sshReload)));
  return sshBackupPart(new SshHostKeys({ dir: host.sshDir, logger, runner }), reload);
}
