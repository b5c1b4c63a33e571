import type { Sequelize } from 'sequelize';
import type { Mode } from '../../config/config.ts';
import type { Logger } from '../../core/logger.ts';
import type { TopicProvider, TopicPublisher } from '../../core/topics/topic-provider.ts';
import { api } from '../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea } from '../area.ts';
import { filesHandlers } from '../files/files.routes.ts';
import { FilesService } from '../files/files.service.ts';
import { FolderWatches } from '../files/folder-watch.ts';
import { ListingCache } from '../files/listing-cache.ts';
import type { FolderSnapshot } from '../files/listing.ts';
import { groupMembership } from './group-membership.ts';
import { ShareAccessResolver } from './share-access.ts';
import { initShareModels } from './share.model.ts';
import { sharesHandlers } from './shares.routes.ts';
import { SharesService, type ShareUser } from './shares.service.ts';
import { sharesListTopic } from './shares-topic.ts';
import type { ShareFsFor } from '../../host/share-fs/share-fs.ts';

export interface SharesAreaDeps {
  db: Sequelize;
  mode: Mode;
  dataDir: string;
  logger: Logger;
  topics: TopicPublisher & { register(provider: TopicProvider): void; recheckAll(): Promise<void> };
  listUsers(): Promise<ShareUser[]>;
  /** Sockets holding a topic; folder watches without any are stopped. */
  listenerCount(topic: string): number;
  /** Called after every share or grant change (file services). */
  hostChanged?(): void;
  /** The identity a user's file reads and writes run in (daemon/src/host/share-fs). */
  fsFor: ShareFsFor;
}

/** Builds shares and files with their narrow dependencies and registers their live topics. */
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
  const shareFolder = async (principal: Parameters<SharesService['requireAccess']>[0], shareId: number, need: 'read' | 'readWrite') =>
    (await shares.requireAccess(principal, shareId, need)).hostPath;
  // Snapshots of big folders for paging; file operations and recycle bin jobs invalidate them through the daemon.
  const listings = new ListingCache<FolderSnapshot>();
  const files = new FilesService({ shareFolder, shareName: (id) => shares.nameOf(id), listings, logger, fsFor: deps.fsFor });
  const folderWatches = new FolderWatches({
    shareFolder,
    mayRead: (p, id) => shares.mayRead(p, id),
    publisher: topics,
    listenerCount: deps.listenerCount,
    folderChanged: (folder) => listings.invalidate(folder),
    logger,
  });
  topics.register(sharesListTopic(shares));
  topics.register(folderWatches);
  return defineArea({
    name: 'shares',
    routes: [tableRoutes(api.shares, sharesHandlers(shares)), tableRoutes(api.files, filesHandlers(files))],
    shares,
    files,
    listings,
    close: () => folderWatches.close(),
  });
}
