import path from 'node:path';
import { Op } from 'sequelize';
import type { OnConflict } from '../../../../../shared/src/api/files/operations.ts';
import type { JobContext, JobKind } from '../../../core/jobs/job-types.ts';
import type { Logger } from '../../../core/logger.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import { moveInto } from '../move-entry.ts';
import { ensureFolders, lstatOrNull, type TreeContext } from '../tree.ts';
import { resolveInShare } from '../safe-path.ts';
import { destroyItem, readyShareBin, storedPath } from './trash-bin.ts';
import type { TrashRow } from './trash.model.ts';
import { daemonFs } from '../../../host/share-fs/daemon-fs.ts';

export type TrashJobKind = 'files.trash.restore' | 'files.trash.delete' | 'files.trash.empty';

export interface TrashJobParams {
  shareId: number;
  ids: number[];
  onConflict: OnConflict;
}

export interface TrashJobResult {
  /** Restored items with where they went (restore), or deleted item ids (delete, empty). */
  done: { id: number; path: string | null }[];
  /** Items left where they were: gone meanwhile, or their name taken under skip. */
  skipped: { id: number; reason: 'missing' | 'exists' }[];
}

export interface TrashJobDeps {
  rows: typeof TrashRow;
  shareRoot(shareId: number): Promise<string>;
  logger: Logger;
  /** Drops cached thumbnails of an entry replaced by a restore with overwrite. */
  forget(shareId: number, rel: string): Promise<void>;
  /** Drops listing snapshots of a folder written into (and of the folders below it). */
  folderChanged(folder: string): void;
  /** A restored entry keeps the ACL it had when deleted; the grants may have changed since. */
  arrived(shareId: number, fullPaths: string[]): void;
}

async function restoreItem(root: string, row: TrashRow, onConflict: OnConflict, ctx: TreeContext): Promise<string | null> {
  const segments = row.originalPath.split('/');
  const name = segments.pop() as string;
  const folder = await ensureFolders(ctx.fs, root, segments);
  const dest = await moveInto(storedPath(root, row), folder, name, { ctx, onConflict, targetRoot: root });
  if (dest !== null) await row.destroy();
  return dest === null ? null : ctx.relOf(dest);
}

async function runTrashJob(deps: TrashJobDeps, kind: TrashJobKind, job: JobContext<TrashJobParams>): Promise<TrashJobResult> {
  const { shareId, ids, onConflict } = job.params;
  // Also takes over an old in-share bin, so its items can be restored or deleted.
  const root = await readyShareBin(await deps.shareRoot(shareId));
  const rows = await deps.rows.findAll({ where: { shareId, id: { [Op.in]: ids } }, order: [['id', 'ASC']] });
  const result: TrashJobResult = { done: [], skipped: [] };
  const found = new Set(rows.map((r) => r.id));
  for (const id of ids) if (!found.has(id)) result.skipped.push({ id, reason: 'missing' });
  const ctx: TreeContext = {
    // Items come out of the bin, the box's own folder that no user can read: the daemon restores them.
    fs: daemonFs,
    signal: job.signal,
    addBytes: () => undefined,
    report: () => undefined,
    relOf: (abs) => abs.slice(root.length + 1),
  };
  job.progress(0, rows.length, 'items');
  if (kind === 'files.trash.restore' && onConflict === 'fail') {
    // A taken name stops the restore before anything moved.
    for (const row of rows) {
      const r = await resolveInShare(root, row.originalPath).catch(() => null);
      if (r?.stat) throw new ProblemError('fs.entry.exists', { name: row.originalPath });
    }
  }
  for (const [i, row] of rows.entries()) {
    job.signal.throwIfAborted();
    if (kind === 'files.trash.restore') {
      if (!(await lstatOrNull(daemonFs, storedPath(root, row)))) result.skipped.push({ id: row.id, reason: 'missing' });
      else {
        // A restore may recreate folders anywhere on the way to the item: the whole share's snapshots go.
        const restored = await restoreItem(root, row, onConflict, ctx).finally(() => deps.folderChanged(root));
        if (restored === null) result.skipped.push({ id: row.id, reason: 'exists' });
        else {
          result.done.push({ id: row.id, path: restored });
          deps.arrived(shareId, [path.join(root, restored)]);
        }
        if (restored !== null && onConflict === 'overwrite') await deps.forget(shareId, restored);
      }
    } else {
      await destroyItem(root, row);
      result.done.push({ id: row.id, path: null });
    }
    job.progress(i + 1, rows.length, 'items');
  }
  deps.logger.info('recycle bin items handled', {
    logCode: 'files.trashHandled',
    component: 'files',
    kind,
    shareId,
    done: result.done.length,
    skipped: result.skipped.length,
  });
  return result;
}

/** The three job kinds of the recycle bin. */
export function trashJobs(deps: TrashJobDeps): Record<TrashJobKind, JobKind<TrashJobParams, TrashJobResult>> {
  const kind = (k: TrashJobKind): JobKind<TrashJobParams, TrashJobResult> => ({ concurrency: 1, run: (job) => runTrashJob(deps, k, job) });
  return {
    'files.trash.restore': kind('files.trash.restore'),
    'files.trash.delete': kind('files.trash.delete'),
    'files.trash.empty': kind('files.trash.empty'),
  };
}
