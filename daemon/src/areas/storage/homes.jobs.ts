import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { JobContext } from '../../core/jobs/job-types.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { removeTree } from '../../host/nofollow-fs.ts';
import { trashFolderName } from '../shares/share-layout.ts';
import { effectiveQuota } from './home-quota.ts';
import type { HomeShares } from './homes-deps.ts';
import type { HomesService } from './homes.service.ts';
import { shareRootOf } from '../shares/share-layout.ts';
import type { HomeModels } from './homes.model.ts';

export interface HomeJobsDeps {
  homes: HomesService;
  models: HomeModels;
  shares: HomeShares;
  copy(from: string, to: string, signal?: AbortSignal): Promise<void>;
}

/** A folder name not yet taken in `parent`: `name`, `name (2)`, ... */
async function freeName(parent: string, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name} (${n})`;
    const taken = await access(path.join(parent, candidate)).then(
      () => true,
      () => false,
    );
    if (!taken) return candidate;
  }
}

/** Moves a deleted user's files into a new folder of a share, then deletes the home with its recycle bin. */
export async function runHomeRelease(deps: HomeJobsDeps, ctx: JobContext<{ shareId: number; targetShareId: number }>): Promise<{ folder: string }> {
  const row = await deps.models.homes.findByPk(ctx.params.shareId);
  if (!row || row.userId !== null) throw new ProblemError('homes.home.not_found', { shareId: ctx.params.shareId });
  const from = await deps.shares.hostPath(row.shareId);
  const targetRoot = await deps.shares.hostPath(ctx.params.targetShareId);
  if (!from || !targetRoot) throw new ProblemError('fs.share.not_found', { shareId: ctx.params.targetShareId });
  ctx.progress(0, 2, 'steps');
  const folder = await freeName(targetRoot, row.folder);
  const to = path.join(targetRoot, folder);
  await mkdir(to);
  await deps.copy(from, to, ctx.signal);
  // The recycle bin goes with the home, not into the share (it lies beside the home's files; an old one may still be inside).
  // Removed by descriptors: the folder is in a share, where a user may swap a folder for a link.
  await removeTree(path.join(to, trashFolderName));
  // The copy kept the home's ACL (only its user); the folder now follows the target share's grants.
  deps.shares.entriesArrived(ctx.params.targetShareId, [to]);
  ctx.progress(1, 2, 'steps');
  await deps.homes.destroy(row);
  ctx.progress(2, 2, 'steps');
  return { folder };
}

export interface HomeMoveResult {
  moved: string[];
  failed: { folder: string; error: string }[];
}

/**
 * Moves every home to another pool, one at a time: the old dataset is read-only while its files
 * are copied; a home whose copy fails is made writable again and stays where it was.
 */
export async function runHomeMove(deps: HomeJobsDeps, ctx: JobContext<{ pool: string }>): Promise<HomeMoveResult> {
  const { homes, models } = deps;
  const { pool } = ctx.params;
  const settings = await homes.settings();
  const rows = (await models.homes.findAll({ order: [['folder', 'ASC']] })).filter((r) => !r.dataset.startsWith(`${pool}/`));
  const result: HomeMoveResult = { moved: [], failed: [] };
  for (const [i, row] of rows.entries()) {
    ctx.signal.throwIfAborted();
    ctx.progress(i, rows.length, 'homes');
    const dataset = `${pool}/homes/${row.folder}`;
    let created = false;
    try {
      await homes.command(['zfs', 'set', 'readonly=on', row.dataset], ctx.signal);
      const from = await homes.mountpoint(row.dataset);
      const to = await homes.makeDataset(dataset, effectiveQuota(row.quotaBytes, settings.defaultQuotaBytes));
      created = true;
      // The whole dataset: the share's files and its recycle bin beside them.
      await deps.copy(from, to, ctx.signal);
      await homes.destroyDataset(row.dataset, ctx.signal);
      await deps.shares.relocate(row.shareId, { dataset, hostPath: shareRootOf(to) });
      await row.update({ dataset });
      result.moved.push(row.folder);
    } catch (err) {
      if (created) await homes.destroyDataset(dataset).catch(() => undefined);
      await homes.command(['zfs', 'set', 'readonly=off', row.dataset]).catch(() => undefined);
      const error = err instanceof ProblemError ? JSON.stringify(err.params ?? {}) : err instanceof Error ? err.message : String(err);
      ctx.logger.warn('home not moved', { logCode: 'storage.homeNotMoved', component: 'storage', folder: row.folder, error });
      result.failed.push({ folder: row.folder, error });
    }
  }
  // New homes go to the new pool even when some old ones could not move.
  await settings.update({ homePool: pool });
  ctx.progress(rows.length, rows.length, 'homes');
  return result;
}
