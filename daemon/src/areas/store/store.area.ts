import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { topics } from '../../../../shared/src/topics.ts';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { Config } from '../../config/config.ts';
import type { Clock } from '../../core/clock.ts';
import { product } from '../../core/product.ts';
import type { JobEngine } from '../../core/jobs/job-engine.ts';
import type { Logger } from '../../core/logger.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { Scheduler } from '../../core/scheduler.ts';
import { trustedKeys } from '../../core/signed-index.ts';
import type { TopicProvider, TopicPublisher } from '../../core/topics/topic-provider.ts';
import { api } from '../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea } from '../area.ts';
import type { AppsArea } from '../apps/apps.area.ts';
import type { UserRow } from '../identity/users/user.model.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import { CatalogCopies, defaultMaxCatalogBytes } from './catalog-copies.ts';
import { lastDueAt } from './daily-check.ts';
import { runCheck } from './store-check.ts';
import { StoreBrowse } from './store-browse.ts';
import { storeBackupPart } from './store.backup.ts';
import { storeHandlers } from './store.routes.ts';
import { initStoreModels } from './store.model.ts';
import { checkJob, StoreService, syncJob, type ProjectCatalog } from './store.service.ts';

/** Test seams: the project catalogs (a loopback server instead of the project's), the fetch time limit and size cap, and a CA git trusts. */
export interface StoreOptions {
  projectCatalogs?: ProjectCatalog[];
  fetchTimeoutMs?: number;
  maxCatalogBytes?: number;
  gitCaFile?: string;
}

export const defaultProjectCatalogs: ProjectCatalog[] = [{ id: 'cellar', name: 'Cellar', url: 'https://git.cellar-nas.org/cellar/catalog.git' }];

export interface StoreAreaDeps {
  db: Sequelize;
  config: Pick<Config, 'dataDir' | 'mode' | 'trustedKeysFile'>;
  clock: Clock;
  logger: Logger;
  scheduler: Pick<Scheduler, 'every'>;
  jobs: Pick<JobEngine, 'enqueue' | 'get' | 'register'>;
  topics: TopicPublisher;
  apps: AppsArea;
  notifications: Pick<NotificationsService, 'notify'>;
  /** The users' rows: automatic updates run as an administrator, and administrators hear of the others. */
  userRows: typeof UserRow;
  options?: StoreOptions;
}

/** Read late, from areas built after the store: the box's time zone (the time area's) and a user's principal for the check's installs. */
export interface StoreLinks {
  zone(): string;
  principal(userId: number): Promise<Omit<Principal, 'sessionId'> | null>;
}

const dailyTickMs = 60_000;
const jobPollMs = 200;
const asReader = { id: 0, admin: true };

/** Builds the Store: catalogs fetched with git and verified, browsing, packages through the Apps area, and the daily check. */
export async function createStoreArea(deps: StoreAreaDeps, links: StoreLinks) {
  const { zone, principal } = links;
  const { dataDir, mode, trustedKeysFile } = deps.config;
  const root = path.join(dataDir, 'store');
  const administrators = async () => (await deps.userRows.findAll({ where: { admin: true, active: true }, order: [['id', 'ASC']] })).map((u) => u.id);
  const models = initStoreModels(deps.db);
  const copies = new CatalogCopies({
    root: path.join(root, 'catalogs'),
    keys: trustedKeys(trustedKeysFile),
    logger: deps.logger,
    timeoutMs: deps.options?.fetchTimeoutMs ?? 120_000,
    maxBytes: deps.options?.maxCatalogBytes ?? defaultMaxCatalogBytes,
    caFile: deps.options?.gitCaFile,
  });
  const installed = async () =>
    (await deps.apps.apps.list()).apps.map((a) => ({ id: a.id, version: a.manifest.version, updatePolicy: a.updatePolicy, source: a.source }));
  const store = new StoreService({
    models,
    copies,
    clock: deps.clock,
    logger: deps.logger,
    publisher: deps.topics,
    jobs: deps.jobs,
    projectCatalogs: deps.options?.projectCatalogs ?? defaultProjectCatalogs,
    zone,
    boxVersion: product.version,
    allowHttp: mode === 'development',
    installed,
  });
  const browse = new StoreBrowse({
    store,
    installedVersions: async () => new Map((await installed()).map((a) => [a.id, a.version])),
    takePackage: (user, body, size, source) => deps.apps.packages.upload(user, body, size, source),
    tempDir: root,
    downloadTimeoutMs: deps.options?.fetchTimeoutMs ?? 120_000,
  });
  const asPrincipal = async (userId: number): Promise<Principal | null> => {
    const found = await principal(userId);
    return found?.admin ? { ...found, sessionId: '' } : null;
  };
  const finished = async (jobId: number, signal: AbortSignal): Promise<Job> => {
    for (;;) {
      const job = await deps.jobs.get(jobId, asReader);
      if (!['queued', 'running'].includes(job.state) || signal.aborted) return job;
      await new Promise((resolve) => setTimeout(resolve, jobPollMs));
    }
  };
  // Several catalogs fetch at once: a stuck server holds only its own job.
  deps.jobs.register(syncJob, {
    concurrency: 8,
    run: async (ctx: { params: { key: number }; signal: AbortSignal }) => void (await store.fetchCatalog(ctx.params.key, ctx.signal)),
  });
  deps.jobs.register(checkJob, {
    run: (ctx: Parameters<typeof runCheck>[1]) =>
      runCheck(
        {
          store,
          browse,
          actor: async (userId) => (userId !== null ? await asPrincipal(userId) : null) ?? asPrincipal((await administrators())[0] ?? 0),
          administrators,
          install: (user, packageId) => deps.apps.apps.install(user, packageId, {}),
          discard: (user, packageId) => deps.apps.packages.discard(user, packageId),
          finished,
          notify: (userId, input) => deps.notifications.notify(userId, input),
        },
        ctx,
      ),
  });
  // Administrators' windows follow the settings.
  const adminTopic: TopicProvider = {
    pattern: topics.storeAdmin.pattern,
    subscribe: async (principal) => {
      if (!principal.admin) throw new ProblemError('auth.permission.denied');
      return store.state();
    },
    mayRead: async (principal) => principal.admin,
  };
  let lastCheck: number | null = null;
  // Each minute: a check is owed when the last one ran before the most recent daily time (plus this box's delay).
  deps.scheduler.every('store.daily', dailyTickMs, async () => {
    const settings = await store.settingsRow();
    const due = lastDueAt(deps.clock.now(), { dailyTime: settings.dailyTime, delayMinutes: settings.delayMinutes, zone: zone() });
    if (settings.lastCheckAt !== null && Date.parse(settings.lastCheckAt) >= due) return;
    if (lastCheck !== null && ['queued', 'running'].includes((await deps.jobs.get(lastCheck, asReader)).state)) return;
    lastCheck = (await deps.jobs.enqueue(checkJob, {}, null)).id;
  });
  await store.start();
  const backupPart = storeBackupPart({
    models,
    store,
    copies,
    projectCatalogs: deps.options?.projectCatalogs ?? defaultProjectCatalogs,
    allowHttp: mode === 'development',
  });
  return defineArea({ name: 'store', topics: [adminTopic], routes: [tableRoutes(api.store, storeHandlers(store, browse))], store, browse, copies, backupPart });
}
