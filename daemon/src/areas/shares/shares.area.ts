import type { Sequelize } from 'sequelize';
import type { Mode } from '../../config/config.ts';
import type { Logger } from '../../core/logger.ts';
import type { TopicPublisher } from '../../core/topics/topic-provider.ts';
import { api } from '../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea } from '../area.ts';
import { groupMembership } from './group-membership.ts';
import { ShareAccessResolver } from './share-access.ts';
import { initShareModels } from './share.model.ts';
import { sharesHandlers } from './shares.routes.ts';
import { SharesService, type ShareUser } from './shares.service.ts';
import { sharesListTopic } from './shares-topic.ts';

export interface SharesAreaDeps {
  db: Sequelize;
  mode: Mode;
  dataDir: string;
  logger: Logger;
  topics: TopicPublisher & { recheckAll(): Promise<void> };
  listUsers(): Promise<ShareUser[]>;
  /** Called after every share or grant change (file services). */
  hostChanged?(): void;
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
    shares,
  });
}
