import { Op } from 'sequelize';
import type { Clock } from '../../../core/clock.ts';
import type { Logger } from '../../../core/logger.ts';
import { destroyItem, readyShareBin } from './trash-bin.ts';
import type { TrashRow } from './trash.model.ts';

export const trashPurgeTask = 'files.trash.purge';
export const trashPurgeIntervalMs = 24 * 60 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;

export interface PurgeDeps {
  rows: typeof TrashRow;
  clock: Clock;
  logger: Logger;
  /** Every share with its folder and its retention as set now. */
  shares(): Promise<{ id: number; hostPath: string | null; trashRetentionDays: number }[]>;
}

/**
 * Deletes for good what has been in a bin longer than its share's retention. The retention is
 * read on every run, so a change applies to items already in the bin; 0 keeps items until emptied.
 */
export async function purgeTrash(deps: PurgeDeps, signal: AbortSignal): Promise<number> {
  let removed = 0;
  for (const share of await deps.shares()) {
    if (share.trashRetentionDays === 0 || share.hostPath === null) continue;
    const before = new Date(deps.clock.now() - share.trashRetentionDays * dayMs).toISOString();
    const rows = await deps.rows.findAll({ where: { shareId: share.id, deletedAt: { [Op.lt]: before } } });
    if (rows.length === 0) continue;
    let root: string;
    try {
      root = await readyShareBin(share.hostPath);
    } catch (err) {
      // One share whose folder or bin is unusable must not keep the others from being purged.
      deps.logger.warn('recycle bin not purged', { component: 'files', shareId: share.id, error: err instanceof Error ? err.message : String(err) });
      continue;
    }
    for (const row of rows) {
      if (signal.aborted) return removed;
      await destroyItem(root, row);
      removed++;
    }
  }
  if (removed > 0) deps.logger.info('recycle bin items purged by retention', { logCode: 'files.trashPurged', component: 'files', removed });
  return removed;
}
