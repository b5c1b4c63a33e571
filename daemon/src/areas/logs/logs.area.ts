import type { Mode } from '../../config/config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { Scheduler } from '../../core/scheduler.ts';
import type { TopicsHub } from '../../core/topics/topics-hub.ts';
import { CommandRunner } from '../../host/command-runner.ts';
import { JournalReader } from '../../host/journal.ts';
import { api } from '../../../../shared/src/api/index.ts';
import { tableRoutes, type TableRoutes } from '../../http/area-routes.ts';
import type { Area } from '../area.ts';
import { JournalIngest } from './journal-ingest.ts';
import type { LogStore } from './log-store.ts';
import { logsHandlers } from './logs.routes.ts';
import { logTailTopic } from './logs.topics.ts';
import { LogsService, noArchive, type LogArchiveLocation } from './logs.service.ts';

const maintainIntervalMs = 10 * 60 * 1000;
const journalPollMs = 2000;

export interface LogsAreaDeps {
  mode: Mode;
  store: LogStore;
  clock: Clock;
  logger: Logger;
  scheduler: Scheduler;
  topics: TopicsHub;
  /** Test seams: an archive directory before pools exist, a small export limit. */
  options?: { archive?: LogArchiveLocation; exportLimit?: number };
}

export interface LogsArea extends Area {
  routes: TableRoutes[];
  logs: LogsService;
  /** Where the archive goes once pools exist (the storage area comes later); a test's own archive stays. */
  archiveOn(location: LogArchiveLocation): void;
}

/** The Logs area: the service over the store, its topics, retention and, on a box, the journal's entries. */
export async function createLogsArea(deps: LogsAreaDeps): Promise<LogsArea> {
  let location: LogArchiveLocation = deps.options?.archive ?? noArchive;
  const archive: LogArchiveLocation = { dir: (pool) => location.dir(pool), pools: () => location.pools() };
  const logs = new LogsService({ store: deps.store, clock: deps.clock, archive, exportLimit: deps.options?.exportLimit });
  await logs.init();
  logs.publishTo(deps.topics);
  deps.scheduler.every('logs.maintain', maintainIntervalMs, async () => void (await logs.maintain()));
  if (deps.mode === 'box') {
    const journal = new JournalIngest(new JournalReader(new CommandRunner(deps.logger, true)), deps.store);
    deps.scheduler.every('logs.journal', journalPollMs, async () => void (await journal.runOnce()));
  }
  return {
    name: 'logs',
    topics: [logTailTopic(logs)],
    routes: [tableRoutes(api.logs, logsHandlers(logs))],
    logs,
    archiveOn: (next) => {
      if (!deps.options?.archive) location = next;
    },
  };
}
