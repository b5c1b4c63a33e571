import type { LogSettings } from '../../../../shared/src/api/logs/logs.ts';
import { appendToArchive } from './log-archive.ts';
import type { LogDb } from './log-db.ts';
import type { LogStore } from './log-store.ts';
import { deleteRows, entryStats, oldestRows, usedBytes } from './logs.queries.ts';

const dayMs = 86_400_000;
const chunk = 2000;
/** Trimming for size goes a little below the limit so the next batches do not trim again at once. */
const sizeSlack = 0.9;

export interface TrimResult {
  /** Entries that left the current logs (and went to the archive when it is on). */
  removed: number;
  archived: number;
}

/**
 * Applies retention, then the size limit, to the current logs, oldest entries first. With an
 * archive directory every removed entry is appended there (and synced) before it is deleted.
 */
export function trimLogs(store: LogStore, settings: LogSettings, archiveDir: string | null, now: number): Promise<TrimResult> {
  return store.exclusive(async (db) => {
    const result: TrimResult = { removed: 0, archived: 0 };
    const cutoff = now - settings.retentionDays * dayMs;
    for (;;) {
      const moved = await moveOldest(db, chunk, cutoff, archiveDir, result);
      if (moved < chunk) break;
    }
    await shrink(db);
    let used = await usedBytes(db);
    let compacted = false;
    while (used > settings.maxBytes) {
      const { count } = await entryStats(db);
      if (count === 0) break;
      const perEntry = used / count;
      const excess = Math.ceil((used - settings.maxBytes * sizeSlack) / perEntry);
      for (let left = Math.min(excess, count); left > 0;) {
        const moved = await moveOldest(db, Math.min(chunk, left), null, archiveDir, result);
        if (moved === 0) break;
        left -= moved;
      }
      await shrink(db);
      const after = await usedBytes(db);
      // FTS5 keeps delete markers until its segments merge; merge them once before trimming further.
      if (after > settings.maxBytes && !compacted) {
        await db.exec("INSERT INTO log_fts (log_fts) VALUES ('optimize')");
        await shrink(db);
        compacted = true;
      }
      used = await usedBytes(db);
    }
    return result;
  });
}

async function moveOldest(db: LogDb, limit: number, before: number | null, archiveDir: string | null, result: TrimResult): Promise<number> {
  const rows = await oldestRows(db, limit, before);
  if (rows.length === 0) return 0;
  if (archiveDir) {
    await appendToArchive(archiveDir, rows);
    result.archived += rows.length;
  }
  await db.exec('BEGIN IMMEDIATE');
  try {
    await deleteRows(
      db,
      rows.map((r) => r.id),
    );
    await db.exec('COMMIT');
  } catch (err) {
    await db.exec('ROLLBACK').catch(() => undefined);
    throw err;
  }
  result.removed += rows.length;
  return rows.length;
}

/** Gives freed pages back to the file system and folds the WAL into the file. */
async function shrink(db: LogDb): Promise<void> {
  await db.exec('PRAGMA incremental_vacuum');
  await db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
}
