import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { maxUploadBytes, type FileEntry, type FolderPage, type ListQuery } from '../../../../shared/src/api/files/files.ts';
import type { GrantLevel } from '../../../../shared/src/api/shares/shares.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import type { Logger } from '../../core/logger.ts';
import { at, type ShareFs, type ShareFsFor } from '../../host/share-fs/share-fs.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { entryOf, targetStat } from './file-entry.ts';
import type { ListingCache } from './listing-cache.ts';
import { listPage, type FolderSnapshot } from './listing.ts';
import { assertExists, assertFollowable, checkName, resolveInShare, type ResolvedPath } from './safe-path.ts';
import { freeBytes, isOutOfSpace, spaceProblem } from './space.ts';
import { receiveUpload } from './upload.ts';

export interface FilesDeps {
  /** The share's folder when the caller holds `need` on it (throws fs.share.not_found / read_only). */
  shareFolder(principal: Principal, shareId: number, need: GrantLevel): Promise<string>;
  /** The share's name, for the problems that name it (no room on it). */
  shareName(shareId: number): Promise<string>;
  /** Snapshots of big folders for paging; every write here invalidates the folder it wrote into. */
  listings: ListingCache<FolderSnapshot>;
  logger: Logger;
  /**
   * The identity file contents are read and written in: the caller's own (a worker with the
   * user's uid on a box), so a path the checks here missed still reaches only what the user may.
   * Listings and entry details read metadata in the daemon's identity.
   */
  fsFor: ShareFsFor;
}

/** An open file ready to be sent: the handle was opened with O_NOFOLLOW on the checked path. */
export interface OpenFile {
  handle: FileHandle;
  name: string;
  size: number;
  ino: bigint;
  mtimeNs: bigint;
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/** The rules of the file API: every path resolved inside its share, access checked on every call. */
export class FilesService {
  constructor(private readonly deps: FilesDeps) {}

  async entry(principal: Principal, shareId: number, rel: string): Promise<FileEntry> {
    const r = await this.resolve(principal, shareId, rel, 'read');
    return this.entryOfResolved(r);
  }

  async list(principal: Principal, shareId: number, q: ListQuery): Promise<FolderPage> {
    const r = await this.resolve(principal, shareId, q.path ?? '', 'read');
    assertExists(r);
    assertFollowable(r);
    const target = r.link === 'inside' ? await targetStat(r.link, r.target) : r.stat;
    if (!target?.isDirectory()) throw new ProblemError('fs.entry.not_folder');
    const page = await listPage(
      {
        shareId,
        folder: r.target,
        folderStat: target,
        root: r.root,
        rel: r.rel,
        sort: q.sort ?? 'name',
        order: q.order ?? 'asc',
        limit: q.limit ?? 200,
        cursor: q.cursor,
      },
      this.deps.listings,
    );
    return { ...page, path: r.rel, topic: topicName.folder(shareId, r.rel) };
  }

  async createFolder(principal: Principal, shareId: number, rel: string): Promise<FileEntry> {
    const r = await this.resolve(principal, shareId, rel, 'readWrite');
    if (r.rel === '') throw new ProblemError('fs.entry.exists', { name: '' });
    try {
      // mkdir never follows a link in the last segment: an existing link is EEXIST too.
      await (await this.fsOf(principal)).mkdir(r.full, 0o777);
    } catch (err) {
      if (errno(err) === 'EEXIST') throw new ProblemError('fs.entry.exists', { name: r.name });
      if (errno(err) === 'ENOTDIR') throw new ProblemError('fs.entry.not_folder');
      throw err;
    }
    this.deps.listings.invalidate(r.parent);
    this.deps.logger.info('folder created', { logCode: 'files.folderCreated', component: 'files', shareId, path: r.rel });
    return this.entryOfResolved(await resolveInShare(r.root, r.rel));
  }

  /**
   * Renames within the folder, never replacing. Files and links: link() the new name (fails
   * atomically with EEXIST when taken), then unlink the old one. Folders cannot be hard-linked
   * and Node lacks renameat2(RENAME_NOREPLACE): the name is checked, then renamed; rename()
   * itself refuses a non-empty folder or a file in the way, so only an empty folder created in
   * that instant could be replaced.
   */
  async rename(principal: Principal, shareId: number, rel: string, newName: string): Promise<FileEntry> {
    checkName(newName);
    const r = await this.resolve(principal, shareId, rel, 'readWrite');
    if (r.rel === '') throw new ProblemError('fs.path.invalid', { reason: 'shareRoot' });
    const own = assertExists(r);
    const exists = () => new ProblemError('fs.entry.exists', { name: newName });
    const fs = await this.fsOf(principal);
    // Every step relative to one descriptor of the folder: a swap of the folder meanwhile cannot split them.
    await fs.inParent(r.full, async (dir, name) => {
      const [from, to] = [at(dir, name), at(dir, newName)];
      const checkedRename = async () => {
        if (
          await fs.lstat(to).then(
            () => true,
            () => false,
          )
        )
          throw exists();
        await fs.rename(from, to).catch((err: unknown) => {
          throw ['EEXIST', 'ENOTEMPTY', 'ENOTDIR'].includes(errno(err) ?? '') ? exists() : err;
        });
      };
      if (own.isDirectory()) return checkedRename();
      const linked = await fs.link(from, to).then(
        () => true,
        (err: unknown) => {
          if (errno(err) === 'EEXIST') throw exists();
          // File systems without hard links (FAT, some network mounts) get the checked rename.
          if (errno(err) === 'EPERM' || errno(err) === 'ENOTSUP' || errno(err) === 'EOPNOTSUPP') return false;
          throw err;
        },
      );
      if (linked) await fs.unlink(from);
      else await checkedRename();
    });
    this.deps.listings.invalidate(r.parent);
    const parentRel = r.rel.split('/').slice(0, -1).join('/');
    const newRel = parentRel === '' ? newName : `${parentRel}/${newName}`;
    this.deps.logger.info('entry renamed', { logCode: 'files.renamed', component: 'files', shareId, path: r.rel, newName });
    return this.entryOfResolved(await resolveInShare(r.root, newRel));
  }

  /** Opens a file for download; links out of the share are refused, the open never follows a link. */
  async openForRead(principal: Principal, shareId: number, rel: string): Promise<OpenFile> {
    const r = await this.resolve(principal, shareId, rel, 'read');
    assertExists(r);
    assertFollowable(r);
    let handle: FileHandle;
    try {
      handle = await (await this.fsOf(principal)).open(r.target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (err) {
      if (errno(err) === 'ELOOP') throw new ProblemError('fs.path.outside_share');
      if (errno(err) === 'ENOENT') throw new ProblemError('fs.entry.not_found');
      throw err;
    }
    const s = await handle.stat({ bigint: true });
    if (!s.isFile()) {
      await handle.close();
      throw new ProblemError('fs.entry.not_file');
    }
    return { handle, name: r.name, size: Number(s.size), ino: s.ino, mtimeNs: s.mtimeNs };
  }

  async upload(principal: Principal, shareId: number, rel: string, overwrite: boolean, body: Readable, declaredLength: number | null): Promise<FileEntry> {
    const r = await this.resolve(principal, shareId, rel, 'readWrite');
    if (r.rel === '') throw new ProblemError('fs.entry.is_folder');
    if (r.stat?.isDirectory()) throw new ProblemError('fs.entry.is_folder');
    // Overwriting would replace the link itself, not follow it; refuse it all the same so a link out stays untouched.
    if (r.link === 'outside') throw new ProblemError('fs.path.outside_share');
    if (r.stat && !overwrite) throw new ProblemError('fs.entry.exists', { name: r.name });
    // Space is read at the share's root, which no share user can swap for a link (its folders they can).
    const noRoom = async (needed: number | null) => spaceProblem(r.root, await this.deps.shareName(shareId), needed);
    // A body that cannot fit is refused before a byte is written (the space an overwritten file frees is not counted).
    const free = await freeBytes(r.root).catch(() => Infinity);
    if (declaredLength !== null && declaredLength <= maxUploadBytes && declaredLength > free) throw await noRoom(declaredLength);
    await receiveUpload(await this.fsOf(principal), { folder: r.parent, name: r.name, overwrite, body, declaredLength }).catch(async (err: unknown) => {
      throw isOutOfSpace(err) ? await noRoom(declaredLength) : err;
    });
    this.deps.listings.invalidate(r.parent);
    this.deps.logger.info('file uploaded', { logCode: 'files.uploaded', component: 'files', shareId, path: r.rel, overwrite });
    return this.entryOfResolved(await resolveInShare(r.root, r.rel));
  }

  private fsOf(principal: Principal): Promise<ShareFs> {
    return this.deps.fsFor(principal.id);
  }

  private async resolve(principal: Principal, shareId: number, rel: string, need: GrantLevel): Promise<ResolvedPath> {
    const folder = await this.deps.shareFolder(principal, shareId, need);
    return resolveInShare(folder, rel);
  }

  private async entryOfResolved(r: ResolvedPath): Promise<FileEntry> {
    const own = assertExists(r);
    return entryOf(r.rel, r.name, own, r.link, await targetStat(r.link, r.target));
  }
}
