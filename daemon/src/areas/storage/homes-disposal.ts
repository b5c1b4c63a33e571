import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { HomeDisposal } from '../../../../shared/src/api/identity/users.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { shareRootOf } from '../shares/share-layout.ts';
import type { HomeRow } from './homes.model.ts';
import { effectiveQuota } from './home-quota.ts';
import type { HomesDeps, HomeSteps } from './homes-deps.ts';

/** The folder (and share) name of a home kept after its user. */
export const deletedFolder = (username: string, uid: number) => `${username}.deleted-${uid}`;
/** The dataset a kept home is renamed to: `<pool>/homes/<name>.deleted-<uid>`. */
const keptDataset = (row: HomeRow) => `${row.dataset.slice(0, row.dataset.lastIndexOf('/'))}/${deletedFolder(row.username, row.uid)}`;

/**
 * What becomes of a home when its user is deleted: checked before (so a disposal bound to fail
 * stops the deletion), carried out after, and settled into one whole state when a step fails.
 */
export class HomeDisposals {
  constructor(
    private readonly deps: HomesDeps,
    private readonly homes: HomeSteps,
  ) {}

  /**
   * Refuses, before the user is deleted, every disposal that can be known to fail: no home (delete,
   * move), a target share for move that is unknown or not writable, a home dataset that is gone
   * (keep, move: there is nothing to rename), a `<name>.deleted-<uid>` that exists already.
   * The confirm rule (delete) is the users service's, checked before this.
   */
  async check(user: { id: number }, home: HomeDisposal | undefined, shareId: number | undefined): Promise<void> {
    const disposal = home ?? 'keep';
    const row = await this.deps.models.homes.findOne({ where: { userId: user.id } });
    if (!row) {
      if (disposal !== 'keep') throw new ProblemError('users.home.unavailable', { home: disposal });
      return;
    }
    if (disposal === 'move') {
      const target = shareId === undefined ? null : await this.deps.shares.hostPath(shareId);
      if (target === null) throw new ProblemError('fs.share.not_found', { shareId });
      if (!(await writableFolder(target))) throw new ProblemError('users.home.target_unwritable', { shareId });
    }
    // A home whose dataset is gone can still be deleted (only its share and row remain to go).
    if (disposal === 'delete') return;
    if (!(await this.deps.zfs.exists(row.dataset))) throw new ProblemError('storage.dataset.not_found', { dataset: row.dataset });
    if (await this.deps.zfs.exists(keptDataset(row))) throw new ProblemError('users.home.kept_taken', { folder: deletedFolder(row.username, row.uid) });
  }

  /**
   * After the user went: keep renames the home to `<name>.deleted-<uid>`; delete destroys it; move keeps
   * it, then releases it as a job. A step that fails leaves the home whole under one name, detached from
   * the deleted user (so the homes operations can delete or release it), and answers
   * users.home.dispose_failed saying which: `unchanged` (old name) or `kept` (`<name>.deleted-<uid>`).
   */
  async dispose(
    user: { id: number; username: string; uid: number },
    home: HomeDisposal,
    shareId: number | undefined,
    actorId: number,
  ): Promise<{ keptHome: string | null; job: Job | null }> {
    const row = await this.deps.models.homes.findOne({ where: { userId: user.id } });
    if (!row) return { keptHome: null, job: null };
    try {
      if (home === 'delete') {
        await this.homes.destroy(row);
        return { keptHome: null, job: null };
      }
      await this.keep(row);
    } catch (err) {
      const problem = await this.disposalFailed(row, user, home, err);
      if (problem) throw problem;
      return { keptHome: null, job: null };
    }
    if (home !== 'move' || shareId === undefined) return { keptHome: row.folder, job: null };
    try {
      return { keptHome: null, job: await this.homes.release(row.shareId, shareId, actorId) };
    } catch (err) {
      throw this.failure(user, home, 'kept', row, err);
    }
  }

  /** Settles a failed keep or delete into one whole state (see dispose) and the problem that tells it; null when a delete could be finished after all. */
  private async disposalFailed(row: HomeRow, user: { id: number; username: string }, home: HomeDisposal, err: unknown): Promise<ProblemError | null> {
    const { zfs, shares, logger } = this.deps;
    try {
      await row.reload();
      if (row.userId === null) return this.failure(user, home, 'kept', row, err);
      if (await zfs.exists(row.dataset)) {
        await row.update({ userId: null });
        return this.failure(user, home, 'unchanged', row, err);
      }
      if (home === 'delete') {
        // The dataset went; its share and row follow, and the home is deleted as asked.
        await shares.remove(row.shareId);
        await row.destroy();
        return null;
      }
      const dataset = keptDataset(row);
      if (await zfs.exists(dataset)) {
        // The dataset was renamed; only the bookkeeping was missing.
        const folder = deletedFolder(row.username, row.uid);
        await shares.relocate(row.shareId, { name: folder, dataset, hostPath: shareRootOf(await this.homes.mountpoint(dataset)) });
        await row.update({ userId: null, folder, dataset });
        return this.failure(user, home, 'kept', row, err);
      }
    } catch (settleErr) {
      logger.error('home state not settled', {
        component: 'storage',
        dataset: row.dataset,
        error: settleErr instanceof Error ? settleErr.message : String(settleErr),
      });
    }
    return this.failure(user, home, 'unknown', row, err);
  }

  private failure(
    user: { id: number; username: string },
    home: HomeDisposal,
    homeState: 'unchanged' | 'kept' | 'unknown',
    row: HomeRow,
    err: unknown,
  ): ProblemError {
    const cause =
      err instanceof ProblemError
        ? { cause: err.code, causeParams: err.params ?? {} }
        : { cause: err instanceof Error ? err.message : String(err), causeParams: {} };
    this.deps.logger.warn('home not disposed of', {
      logCode: 'storage.homeNotDisposed',
      component: 'storage',
      userId: user.id,
      home,
      homeState,
      dataset: row.dataset,
      cause: cause.cause,
    });
    return new ProblemError('users.home.dispose_failed', {
      userId: user.id,
      username: user.username,
      userDeleted: true,
      home,
      homeState,
      folder: row.folder,
      shareId: row.shareId,
      ...cause,
    });
  }

  /** Renames the home to `<name>.deleted-<uid>`; on failure the home is whole under its old name (a partial copy is removed). */
  private async keep(row: HomeRow): Promise<void> {
    const folder = deletedFolder(row.username, row.uid);
    const dataset = keptDataset(row);
    let mountpoint: string;
    try {
      await this.homes.command(['zfs', 'rename', row.dataset, dataset]);
      mountpoint = await this.homes.mountpoint(dataset);
    } catch (err) {
      // zfs-fuse cannot rename a file system ("dataset is busy"): copy into the new one instead.
      if (!(await this.deps.zfs.exists(row.dataset)) || (await this.deps.zfs.exists(dataset))) throw err;
      try {
        const from = await this.homes.mountpoint(row.dataset);
        mountpoint = await this.homes.makeDataset(dataset, effectiveQuota(row.quotaBytes, (await this.homes.settings()).defaultQuotaBytes));
        // The whole dataset: the share's files and its recycle bin beside them.
        await this.deps.copy(from, mountpoint);
        await this.homes.destroyDataset(row.dataset);
      } catch (copyErr) {
        // Never two halves: while the original is there, the partial copy goes.
        if ((await this.deps.zfs.exists(row.dataset)) && (await this.deps.zfs.exists(dataset))) await this.homes.destroyDataset(dataset);
        throw copyErr;
      }
    }
    await this.deps.shares.relocate(row.shareId, { name: folder, dataset, hostPath: shareRootOf(mountpoint) });
    await row.update({ userId: null, folder, dataset });
  }
}

/** A folder the release job can make its target folder in (root's view: a read-only mount refuses, modes do not). */
async function writableFolder(hostPath: string): Promise<boolean> {
  try {
    if (!(await stat(hostPath)).isDirectory()) return false;
    await access(hostPath, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
