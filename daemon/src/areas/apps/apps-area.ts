import path from 'node:path';
import type { Sequelize } from 'sequelize';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { Scheduler } from '../../core/scheduler.ts';
import { initAppModel } from './app.model.ts';
import { PackageStore } from './package-store.ts';
import { PackagesService } from './packages.service.ts';

export interface AppsAreaDeps {
  db: Sequelize;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  scheduler: Pick<Scheduler, 'every'>;
  boxVersion: string;
}

const packageSweepMs = 60_000;

/** Builds the apps area: installed apps and uploaded packages. */
export function createAppsArea(deps: AppsAreaDeps) {
  const apps = initAppModel(deps.db);
  const store = new PackageStore({ root: path.join(deps.dataDir, 'apps', 'packages'), clock: deps.clock });
  const packages = new PackagesService({
    store,
    installed: async (appId) => (await apps.findByPk(appId))?.parsedManifest ?? null,
    boxVersion: deps.boxVersion,
    logger: deps.logger,
  });
  // Also at start: packages kept before a restart are forgotten, so their folders go.
  deps.scheduler.every('apps.packages.sweep', packageSweepMs, () => store.sweep());
  return { packages, apps };
}
