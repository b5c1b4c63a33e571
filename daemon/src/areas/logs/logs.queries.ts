import type { LogSettings } from '../../../../shared/src/api/logs/logs.ts';
import type { LogCursor } from './log-cursor.ts';
import type { LogDb } from './log-db.ts';
import { filterSql, type LogFilter } from './log-filter.ts';
import { rowColumns, type LogRow } from './logs.model.ts';

export const defaultSettings: LogSettings = { maxBytes: 256 * 1024 ** 2, retentionDays: 90, archive: false, archiveRetentionDays: 365, archivePool: null };

/** One page of current entries, newest first. */
export function currentPage(db: LogDb, filter: LogFilter, cursor: LogCursor | null, limit: number): Promise<LogRow[]> {
  const { where, params } = filterSql(filter, cursor);
  return db.all<LogRow>(`SELECT ${rowColumns} FROM log_entries e ${where} ORDER BY e.time DESC, e.id DESC LIMIT ?`, [...params, limit]);
}

/** The oldest current entries, oldest first (what trimming takes). */
export function oldestRows(db: LogDb, limit: number, before: number | null): Promise<LogRow[]> {
  const where = before === null ? '' : 'WHERE time < ?';
  return db.all<LogRow>(`SELECT ${rowColumns} FROM log_entries ${where} ORDER BY time ASC, id ASC LIMIT ?`, before === null ? [limit] : [before, limit]);
}

export async function deleteRows(db: LogDb, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await db.run(`DELETE FROM log_entries WHERE id IN (${chunk.map(() => '?').join(', ')})`, chunk);
  }
}

/** Bytes the current logs take in the file (free pages not counted). */
export async function usedBytes(db: LogDb): Promise<number> {
  const count = await db.get<{ page_count: number }>('PRAGMA page_count');
  const free = await db.get<{ freelist_count: number }>('PRAGMA freelist_count');
  const size = await db.get<{ page_size: number }>('PRAGMA page_size');
  return ((count?.page_count ?? 0) - (free?.freelist_count ?? 0)) * (size?.page_size ?? 4096);
}

export async function entryStats(db: LogDb): Promise<{ count: number; oldest: number | null; newest: number | null }> {
  const row = await db.get<{ count: number; oldest: number | null; newest: number | null }>(
    'SELECT count(*) AS count, min(time) AS oldest, max(time) AS newest FROM log_entries',
  );
  return row ?? { count: 0, oldest: null, newest: null };
}

export async function sourceNames(db: LogDb): Promise<string[]> {
  const rows = await db.all<{ source: string }>('SELECT source FROM log_sources ORDER BY source');
  return rows.map((r) => r.source);
}

export async function readState<T>(db: LogDb, key: string): Promise<T | null> {
  const row = await db.get<{ value: string }>('SELECT value FROM log_state WHERE key = ?', [key]);
  return row ? (JSON.parse(row.value) as T) : null;
}

export async function writeState(db: LogDb, key: string, value: unknown): Promise<void> {
  await db.run('INSERT INTO log_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, JSON.stringify(value)]);
}
