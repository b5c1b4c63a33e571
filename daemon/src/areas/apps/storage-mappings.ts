import type { FileHandle } from 'node:fs/promises';
import { realpath } from 'node:fs/promises';
import type { StorageAccess } from '../../../../shared/src/api/apps/app-manifest.ts';
import type { AppStorageMapping } from '../../../../shared/src/api/apps/app-storage.ts';
import type { AppDetails } from '../../../../shared/src/api/apps/apps.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { appAccountName } from '../../host/app-accounts.ts';
import type { FolderHolder } from '../../host/file-services/file-share.ts';
import { heldFolderPath } from '../../host/file-services/folder-holders.ts';
import { errno, openDir, openDirAt } from '../../host/nofollow-fs.ts';
import { parseRelPath } from '../files/safe-path.ts';
import { appDetailsOf } from './app-details.ts';
import type { AppMappingRow, AppModels, AppRow } from './app.model.ts';

export interface StorageMappingsDeps {
  models: AppModels;
  /** Any share by id (mappings are an administrator's), with its folder on the host. */
  share(shareId: number): Promise<{ name: string; hostPath: string } | null>;
  logger: Logger;
  /** After a mapping changed: the list is published, ACLs applied again, the backend restarted with its folders. */
  changed(appId: string): Promise<void>;
}

/** A mapping in force: its folder's real path, found again by descriptors at each use. */
export interface MountedStorage {
  uid: number;
  shareId: number;
  shareName: string;
  root: string;
  access: StorageAccess;
}

const weaker = (a: StorageAccess, b: StorageAccess): StorageAccess => (a === 'read' || b === 'read' ? 'read' : 'readWrite');

/**
 * Storage mappings: an existing folder of a share given to an app's storage request. The app's
 * account holds the folder (an ACL entry the file services keep beside the share's users) only
 * while the app is on and holds the files permission; otherwise the row stays and gives nothing.
 */
export class StorageMappings {
  constructor(private readonly deps: StorageMappingsDeps) {}

  async map(appId: string, storageId: string, mapping: AppStorageMapping): Promise<AppDetails> {
    const row = await this.app(appId);
    const request = row.parsedManifest.storage.find((s) => s.storageId === storageId);
    if (!request) throw new ProblemError('app.storage.not_found', { storageId });
    if (mapping.access === 'readWrite' && request.access === 'read') throw new ProblemError('app.mapping.invalid', { reason: 'readOnlyRequest' });
    const share = await this.deps.share(mapping.shareId);
    if (!share) throw new ProblemError('fs.share.not_found', { shareId: mapping.shareId });
    const segments = parseRelPath(mapping.path);
    await assertFolder(share.hostPath, segments);
    const path = segments.join('/');
    await this.deps.models.mappings.upsert({ appId, storageId, shareId: mapping.shareId, path, access: mapping.access });
    this.deps.logger.info('app storage mapped', {
      logCode: 'apps.storageMapped',
      component: 'apps',
      appId,
      storageId,
      shareId: mapping.shareId,
      path,
      access: mapping.access,
    });
    await this.deps.changed(appId);
    return this.details(appId);
  }

  async unmap(appId: string, storageId: string): Promise<AppDetails> {
    const row = await this.app(appId);
    const removed = await this.deps.models.mappings.destroy({ where: { appId, storageId } });
    if (removed === 0 && !row.parsedManifest.storage.some((s) => s.storageId === storageId)) throw new ProblemError('app.storage.not_found', { storageId });
    if (removed > 0) {
      this.deps.logger.info('app storage unmapped', { logCode: 'apps.storageUnmapped', component: 'apps', appId, storageId });
      await this.deps.changed(appId);
    }
    return this.details(appId);
  }

  /** The app's account on every folder of the share mapped to an app in force, for the file services. */
  async holders(shareId: number): Promise<FolderHolder[]> {
    const rows = await this.deps.models.mappings.findAll({ where: { shareId }, order: [['appId', 'ASC']] });
    const holders: FolderHolder[] = [];
    for (const m of rows) {
      const inForce = await this.inForce(m);
      if (inForce) holders.push({ username: appAccountName(inForce.uid), path: m.path, access: inForce.access });
    }
    return holders;
  }

  /** Storage id to the real path of its folder, for the app's backend (CELLAR_STORAGE). */
  async backendFolders(appId: string): Promise<Record<string, string>> {
    const folders: Record<string, string> = {};
    for (const m of await this.deps.models.mappings.findAll({ where: { appId }, order: [['storageId', 'ASC']] })) {
      const share = (await this.inForce(m)) ? await this.deps.share(m.shareId) : null;
      const real = share ? await heldFolderPath(share.hostPath, m.path) : null;
      if (real !== null) folders[m.storageId] = real;
    }
    return folders;
  }

  /** The mapped folder of one storage request, for the API for apps; refuses what the app may not reach. */
  async mounted(appId: string, storageId: string): Promise<MountedStorage> {
    const row = await this.app(appId);
    if (!row.parsedManifest.storage.some((s) => s.storageId === storageId)) throw new ProblemError('app.storage.not_found', { storageId });
    const m = await this.deps.models.mappings.findOne({ where: { appId, storageId } });
    if (!m) throw new ProblemError('app.storage.not_mapped', { storageId });
    const inForce = await this.inForce(m);
    if (!inForce)
      throw new ProblemError('auth.permission.denied', undefined, { detail: `The app ${appId} does not hold the files permission, or it is switched off` });
    const share = await this.deps.share(m.shareId);
    if (!share) throw new ProblemError('app.storage.not_mapped', { storageId });
    const root = await heldFolderPath(share.hostPath, m.path);
    if (root === null) throw new ProblemError('fs.entry.not_found', undefined, { detail: 'The mapped folder is gone or no folder any more' });
    return { uid: inForce.uid, shareId: m.shareId, shareName: share.name, root, access: inForce.access };
  }

  /** The app's account and the access a mapping gives now: null unless the app is on, holds `files` and still asks for the storage. */
  private async inForce(m: AppMappingRow): Promise<{ uid: number; access: StorageAccess } | null> {
    const [row, account] = await Promise.all([this.deps.models.apps.findByPk(m.appId), this.deps.models.accounts.findByPk(m.appId)]);
    if (!row || !account || row.state !== 'enabled') return null;
    const manifest = row.parsedManifest;
    if (!manifest.permissions.includes('files') || row.revokedPermissions.includes('files')) return null;
    const request = manifest.storage.find((s) => s.storageId === m.storageId);
    // An update may have dropped the request or narrowed it to read: the mapping follows.
    return request ? { uid: account.uid, access: weaker(m.access, request.access) } : null;
  }

  private async app(appId: string): Promise<AppRow> {
    const row = await this.deps.models.apps.findByPk(appId);
    if (!row) throw new ProblemError('app.app.not_found', { appId });
    return row;
  }

  private async details(appId: string): Promise<AppDetails> {
    const row = await this.app(appId);
    const account = await this.deps.models.accounts.findByPk(appId);
    if (!account) throw new ProblemError('app.app.not_found', { appId });
    return appDetailsOf(row, account, await this.deps.models.mappings.findAll({ where: { appId } }));
  }
}

/** The folder must exist inside the share: walked by descriptors from the share's real folder, a link on the way refused. */
async function assertFolder(hostPath: string, segments: string[]): Promise<void> {
  const root = await realpath(hostPath).catch(() => {
    throw new ProblemError('fs.entry.not_found', undefined, { detail: 'The folder of the share is missing on the host' });
  });
  let dir: FileHandle = await openDir(root);
  try {
    for (const segment of segments) {
      const next = await openDirAt(dir, segment).catch((err: unknown) => {
        if (errno(err) === 'ENOENT') throw new ProblemError('fs.entry.not_found');
        if (errno(err) === 'ENOTDIR') throw new ProblemError('fs.entry.not_folder');
        throw err;
      });
      await dir.close();
      dir = next;
    }
  } finally {
    await dir.close().catch(() => undefined);
  }
}
