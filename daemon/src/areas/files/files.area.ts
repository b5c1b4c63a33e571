import type { Logger } from '../../core/logger.ts';
import type { TopicPublisher } from '../../core/topics/topic-provider.ts';
import { api } from '../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import type { ShareFsFor } from '../../host/share-fs/share-fs.ts';
import { defineArea } from '../area.ts';
import type { SharesService } from '../shares/shares.service.ts';
import { filesHandlers } from './files.routes.ts';
import { FilesService } from './files.service.ts';
import { FolderWatches } from './folder-watch.ts';
import { ListingCache } from './listing-cache.ts';
import type { FolderSnapshot } from './listing.ts';

export interface FilesAreaDeps {
  shares: Pick<SharesService, 'requireAccess' | 'nameOf' | 'mayRead'>;
  logger: Logger;
  topics: TopicPublisher;
  /** Sockets holding a topic; folder watches without any are stopped. */
  listenerCount(topic: string): number;
  /** The identity a user's file reads and writes run in (daemon/src/host/share-fs). */
  fsFor: ShareFsFor;
}

/** Files in shares, behind the shares' access checks, with the folder watches' topic. */
export function createFilesArea(deps: FilesAreaDeps) {
  const { shares, logger } = deps;
  const shareFolder = async (principal: Parameters<SharesService['requireAccess']>[0], shareId: number, need: 'read' | 'readWrite') =>
    (await shares.requireAccess(principal, shareId, need)).hostPath;
  // Snapshots of big folders for paging; file operations and recycle bin jobs invalidate them through the daemon.
  const listings = new ListingCache<FolderSnapshot>();
  const files = new FilesService({ shareFolder, shareName: (id) => shares.nameOf(id), listings, logger, fsFor: deps.fsFor });
  const folderWatches = new FolderWatches({
    shareFolder,
    mayRead: (p, id) => shares.mayRead(p, id),
    publisher: deps.topics,
    listenerCount: deps.listenerCount,
    folderChanged: (folder) => listings.invalidate(folder),
    logger,
  });
  return defineArea({
    name: 'files',
    routes: [tableRoutes(api.files, filesHandlers(files))],
    topics: [folderWatches],
    files,
    listings,
    close: () => folderWatches.close(),
  });
}
