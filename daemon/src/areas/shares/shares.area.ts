import type { Sequelize } from 'sequelize';
import type { Mode } from '../../config/config.ts';
import { CommandRunner } from '../../host/command-runner.ts';
import { systemPool } from '../../host/installer/install-plan.ts';
import { ZfsDriver } from '../../host/zfs/zfs-driver.ts';
import type { Logger } from '../../core/logger.ts';
import type { TopicPublisher } from '../../core/topics/topic-provider.ts';
import { api } from '../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea } from '../area.ts';
import type { BackupHostOptions } from '../backup-part.ts';
import { groupMembership } from './group-membership.ts';
import { ShareAccessResolver } from './share-access.ts';
import { initShareModels } from './share.model.ts';
import { sharesBackupPart, type BoxDatasets } from './shares.backup.ts';
import { sharesHandlers } from './shares.routes.ts';
import { SharesService, type ShareUser } from './shares.service.ts';
import { sharesListTopic } from './shares.topics.ts';

export interface SharesAreaDeps {
  db: Sequelize;
  mode: Mode;
  dataDir: string;
  logger: Logger;
  topics: TopicPublisher & { recheckAll(): Promise<void> };
  listUsers(): Promise<ShareUser[]>;
  /** Called after every share or grant change (file services). */
  hostChanged?(): void;
  /** Whether a restore reads this box's pools with zfs (a box, or a root system test); by default on a box. */
  backupHost?: Pick<BackupHostOptions, 'applyHost'>;
}

/** Builds the shares with their narrow dependencies and registers their list's live topic. */
export function createSharesArea(deps: SharesAreaDeps) {
  const { db, logger, topics } = deps;
  const models = initShareModels(db);
  const membership = groupMembership(db);
  const access = new ShareAccessResolver({ grants: models.grants, groupIdsOf: membership.groupIdsOf });
  const shares = new SharesService({
    models,
    access,
    mode: deps.mode,
    dataDir: deps.dataDir,
    logger,
    topics,
    listUsers: deps.listUsers,
    groupExists: membership.groupExists,
    grantsChanged: () =>
      void topics
        .recheckAll()
        .catch((err: unknown) => logger.warn('topics not re-checked', { component: 'shares', error: err instanceof Error ? err.message : String(err) })),
    hostChanged: deps.hostChanged,
  });
  return defineArea({
    name: 'shares',
    topics: [sharesListTopic(shares)],
    routes: [tableRoutes(api.shares, sharesHandlers(shares))],
    backupPart: sharesBackupPart({
      db,
      changed: () => deps.hostChanged?.(),
      mode: deps.mode,
      dataDir: deps.dataDir,
      datasets: boxDatasets(new ZfsDriver(new CommandRunner(logger, deps.backupHost?.applyHost ?? deps.mode === 'box'))),
    }),
    shares,
  });
}

/** This box's pools and datasets as zfs reports them (read on a box only: shares check them in box mode). */
function boxDatasets(zfs: ZfsDriver): BoxDatasets {
  return {
    sharePools: async () => (await zfs.listPools()).map((p) => p.name).filter((name) => name !== systemPool),
    mountpoint: async (dataset) => {
      const [found] = await zfs.objects(dataset, 0);
      const mountpoint = found?.name === dataset ? found.props.get('mountpoint') : undefined;
      return mountpoint?.startsWith('/') ? mountpoint : null;
    },
  };
}
