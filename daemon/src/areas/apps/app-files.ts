import type { Readable } from 'node:stream';
import type { AppFolderPage } from '../../../../shared/src/api/apps/app-files.ts';
import type { ListQuery } from '../../../../shared/src/api/files/files.ts';
import type { ShareAccess } from '../../../../shared/src/api/shares/shares.ts';
import type { FileEntry } from '../../../../shared/src/api/files/files.ts';
import type { Logger } from '../../core/logger.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { ShareFs } from '../../host/share-fs/share-fs.ts';
import { FilesService, type OpenFile } from '../files/files.service.ts';
import type { ListingCache } from '../files/listing-cache.ts';
import type { FolderSnapshot } from '../files/listing.ts';
import type { StorageMappings } from './storage-mappings.ts';

export interface AppFilesDeps {
  mappings: StorageMappings;
  /** The file API's listings, so that a write through either side refreshes both. */
  listings: ListingCache<FolderSnapshot>;
  logger: Logger;
  /** The user's own access to a share, as the file API checks it: an app never widens what its user may do. */
  shareAccess(principal: Principal, shareId: number): Promise<ShareAccess>;
  /** The identity an app's file calls run in: its own account where accounts are real, so the disk's ACLs are the second wall. */
  fsForApp(uid: number): Promise<ShareFs>;
}

/**
 * Files of an app's mapped storage (API for apps). Each call runs the file API's own rules with
 * the mapped folder standing in for the share's root: paths are parsed and walked by
 * descriptors exactly as there, so `..`, absolute paths, NUL and links out of the mapped folder
 * are refused the same way, and the folder is looked up again (by descriptors) on every call.
 * Each call is held to the weaker of the mapping and the calling user's own grant on the share:
 * the app's account holds the folder, but a user reaches through the app only what they may reach
 * through the file API.
 */
export class AppFiles {
  constructor(private readonly deps: AppFilesDeps) {}

  private async files(appId: string, storageId: string): Promise<{ files: FilesService; shareId: number }> {
    const mounted = await this.deps.mappings.mounted(appId, storageId);
    const files = new FilesService({
      shareFolder: async (principal, shareId, need) => {
        const own = await this.deps.shareAccess(principal, shareId);
        if (own === 'none') throw new ProblemError('app.storage.no_access', { storageId });
        if (need === 'readWrite' && (mounted.access !== 'readWrite' || own !== 'readWrite')) throw new ProblemError('app.storage.read_only', { storageId });
        return mounted.root;
      },
      shareName: async () => mounted.shareName,
      listings: this.deps.listings,
      logger: this.deps.logger,
      fsFor: () => this.deps.fsForApp(mounted.uid),
    });
    return { files, shareId: mounted.shareId };
  }

  async list(principal: Principal, appId: string, storageId: string, query: ListQuery): Promise<AppFolderPage> {
    const { files, shareId } = await this.files(appId, storageId);
    const { items, nextCursor, path } = await files.list(principal, shareId, query);
    return { items, nextCursor, path };
  }

  async open(principal: Principal, appId: string, storageId: string, rel: string): Promise<OpenFile> {
    const { files, shareId } = await this.files(appId, storageId);
    return files.openForRead(principal, shareId, rel);
  }

  async write(
    principal: Principal,
    appId: string,
    storageId: string,
    q: { path: string; overwrite?: boolean },
    body: Readable,
    declaredLength: number | null,
  ): Promise<FileEntry> {
    const { files, shareId } = await this.files(appId, storageId);
    return files.upload(principal, shareId, q.path, q.overwrite === true, body, declaredLength);
  }
}
