import { Op } from 'sequelize';
import type { Logger } from '../../../core/logger.ts';
import type { ThumbnailCache } from './thumbnail-cache.ts';
import type { ThumbnailRow } from './thumbnail.model.ts';
import { inspectSource, type SourceInfo } from './thumbnail-source.ts';

/** Removes thumbnails: their cache files first, then their rows. */
export async function removeThumbnails(rows: typeof ThumbnailRow, cache: ThumbnailCache, gone: readonly ThumbnailRow[]): Promise<void> {
  for (const row of gone) await cache.remove(row.shareId, row.cacheKey, row.size);
  if (gone.length) await rows.destroy({ where: { id: gone.map((r) => r.id) } });
}

export interface SweepDeps {
  rows: typeof ThumbnailRow;
  cache: ThumbnailCache;
  /** Real folder of every share, by id. */
  shareRoots(): Promise<Map<number, string>>;
  logger: Logger;
}

const batchSize = 500;

async function currentSource(root: string, rel: string): Promise<SourceInfo> {
  // A share folder that went missing on the host, or a path no longer valid: the source is gone.
  return inspectSource(root, rel).catch(() => ({ kind: 'missing' }) as const);
}

/**
 * Drops every thumbnail whose source is no longer the file it was rendered from: deleted,
 * replaced or changed (its key no longer matches), also by SMB, SFTP or a shell, and all of
 * a share that no longer exists. Answers how many were removed.
 */
export async function sweepThumbnails(deps: SweepDeps, signal?: AbortSignal): Promise<number> {
  const roots = await deps.shareRoots();
  for (const shareId of await deps.cache.shareIds()) if (!roots.has(shareId)) await deps.cache.removeShare(shareId);
  let removed = await deps.rows.destroy({ where: { shareId: { [Op.notIn]: [...roots.keys()] } } });
  let lastId = 0;
  while (!signal?.aborted) {
    const batch = await deps.rows.findAll({ where: { id: { [Op.gt]: lastId } }, order: [['id', 'ASC']], limit: batchSize });
    if (batch.length === 0) break;
    lastId = (batch[batch.length - 1] as ThumbnailRow).id;
    const gone: ThumbnailRow[] = [];
    for (const row of batch) {
      const source = await currentSource(roots.get(row.shareId) as string, row.path);
      if (source.kind !== 'file' || source.key !== row.cacheKey) gone.push(row);
    }
    await removeThumbnails(deps.rows, deps.cache, gone);
    removed += gone.length;
  }
  if (removed) deps.logger.info('stale thumbnails removed', { component: 'thumbnails', removed });
  return removed;
}
