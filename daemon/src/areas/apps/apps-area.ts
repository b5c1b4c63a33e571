import path from 'node:path';
import type { Sequelize } from 'sequelize';
import type { Clock } from '../../core/clock.ts';
import type { JobEngine } from '../../core/jobs/job-engine.ts';
import type { Logger } from '../../core/logger.ts';
import type { Scheduler } from '../../core/scheduler.ts';
import type { TopicProvider, TopicPublisher } from '../../core/topics/topic-provider.ts';
import type { AppAccounts } from '../../host/app-accounts.ts';
import type { AppVolumes } from '../../host/app-volumes/app-volumes.ts';
import type { AppGrantsStore } from '../permissions/app-grants.ts';
import { AppIcons } from './app-icons.ts';
import { AppTokens } from './app-tokens.ts';
import { installJob, rollbackJob, runInstall, runRollback, runUninstall, uninstallJob, type AppJobsDeps } from './app-jobs.ts';
import { initAppModels } from './app.model.ts';
import { appsAdminTopic, appsTopic } from './apps-topics.ts';
import { InstalledAppsService } from './installed-apps.service.ts';
import { PackageStore } from './package-store.ts';
import { PackagesService } from './packages.service.ts';

export interface AppsAreaDeps {
  db: Sequelize;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  scheduler: Pick<Scheduler, 'every'>;
  jobs: Pick<JobEngine, 'enqueue' | 'get' | 'register'>;
  topics: TopicPublisher & { register(provider: TopicProvider): void };
  volumes: AppVolumes;
  accounts: AppAccounts;
  grants: AppGrantsStore;
  boxVersion: string;
}

const packageSweepMs = 60_000;

export type AppsArea = ReturnType<typeof createAppsArea>;

/** Builds the apps area: uploaded packages, installed apps, their jobs and topics. */
export function createAppsArea(deps: AppsAreaDeps) {
  const models = initAppModels(deps.db);
  const store = new PackageStore({ root: path.join(deps.dataDir, 'apps', 'packages'), clock: deps.clock });
  const packages = new PackagesService({
    store,
    installed: async (appId) => (await models.apps.findByPk(appId))?.parsedManifest ?? null,
    boxVersion: deps.boxVersion,
    logger: deps.logger,
  });
  const tokens = new AppTokens(deps.clock);
  const apps = new InstalledAppsService({
    models,
    tokens,
    volumes: deps.volumes,
    store,
    packages,
    grants: deps.grants,
    jobs: deps.jobs,
    publisher: deps.topics,
    clock: deps.clock,
    logger: deps.logger,
  });
  const jobDeps: AppJobsDeps = {
    db: deps.db,
    models,
    volumes: deps.volumes,
    accounts: deps.accounts,
    store,
    grants: deps.grants,
    clock: deps.clock,
    logger: deps.logger,
    chownable: process.getuid?.() === 0,
    endTokens: (appId) => tokens.endApp(appId),
    changed: () => apps.changed(),
  };
  deps.jobs.register(installJob, { run: (ctx: Parameters<typeof runInstall>[1]) => runInstall(jobDeps, ctx) });
  deps.jobs.register(rollbackJob, { run: (ctx: Parameters<typeof runRollback>[1]) => runRollback(jobDeps, ctx) });
  deps.jobs.register(uninstallJob, { run: (ctx: Parameters<typeof runUninstall>[1]) => runUninstall(jobDeps, ctx) });
  deps.topics.register(appsAdminTopic(apps));
  deps.topics.register(appsTopic(apps));
  const icons = new AppIcons({ models, volumes: deps.volumes, mayUse: (principal, appId) => apps.mayUse(principal, appId) });
  // Also at start: packages kept before a restart are forgotten, so their folders go.
  deps.scheduler.every('apps.packages.sweep', packageSweepMs, () => store.sweep());
  apps.changed();
  return { packages, apps, icons, models, tokens, volumes: deps.volumes };
}
