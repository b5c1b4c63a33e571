import type { Sequelize } from 'sequelize';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { product } from '../../core/product.ts';
import { api } from '../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea, type Area } from '../area.ts';
import { backupHandlers } from './backup.routes.ts';
import { BackupService } from './backup.service.ts';
import { collectParts } from './collect-parts.ts';

export interface BackupAreaDeps {
  db: Sequelize;
  clock: Clock;
  logger: Logger;
  /** The other areas, whose contracts carry the parts they build themselves: each knows its own rows and host effects. */
  areas: readonly Area[];
  /** Restoring users ends every session. */
  sessionStore: { endAll(): Promise<number> };
  /** See DaemonOptions.restart (without one, a restore only logs that nothing restarts the daemon). */
  restart?: () => void;
}

/** Builds the backup area: the parts the areas carry, and the service that writes, inspects and restores them. */
export function createBackupArea(deps: BackupAreaDeps) {
  const { db, logger } = deps;
  const backup = new BackupService({
    db,
    parts: collectParts(deps.areas),
    clock: deps.clock,
    logger,
    version: product.version,
    signOutEverybody: async () => void (await deps.sessionStore.endAll()),
    restart: deps.restart ?? (() => logger.warn('a restore asked for a restart, and nothing restarts this daemon', { component: 'backup' })),
  });
  return defineArea({ name: 'backup', routes: [tableRoutes(api.backup, backupHandlers(backup))], backup });
}
