import { logLevels, type LogHistogram, type LogLevel, type LogLevelCounts } from '../../../../shared/src/api/logs/logs.ts';
import type { LogDb } from './log-db.ts';
import { filterSql, type LogFilter } from './log-filter.ts';
import type { LogRow } from './logs.model.ts';

/** The filter with its range fixed, and how it is split. */
export interface HistogramRange {
  from: number;
  to: number;
  buckets: number;
}

const zero = (): LogLevelCounts => ({ debug: 0, info: 0, warn: 0, error: 0 });

/**
 * Counts per level and time bucket: one GROUP BY over the current logs (the time index bounds
 * the scan), plus the archived rows of the range counted in memory.
 */
export async function histogram(db: LogDb, filter: LogFilter, range: HistogramRange, archived: readonly LogRow[]): Promise<LogHistogram> {
  // Equal buckets that cover from..to inclusive; the last one may end a little after `to`.
  const bucketMs = Math.max(1, Math.ceil((range.to - range.from + 1) / range.buckets));
  const counts = Array.from({ length: range.buckets }, zero);
  const totals = zero();
  const add = (bucket: number, level: LogLevel, n: number) => {
    const slot = counts[bucket];
    if (!slot || !logLevels.includes(level)) return;
    slot[level] += n;
    totals[level] += n;
  };

  const bounded: LogFilter = { ...filter, from: range.from, to: range.to };
  const { where, params } = filterSql(bounded, null);
  // Large numbers bind as REAL in the sqlite3 driver: the cast makes the bucket a whole number.
  const rows = await db.all<{ bucket: number; level: LogLevel; n: number }>(
    `SELECT CAST((e.time - ?) / ? AS INTEGER) AS bucket, e.level AS level, count(*) AS n FROM log_entries e ${where} GROUP BY bucket, e.level`,
    [range.from, bucketMs, ...params],
  );
  for (const row of rows) add(row.bucket, row.level, row.n);

  for (const row of await notCurrent(db, archived)) add(Math.floor((row.time - range.from) / bucketMs), row.level, 1);

  return {
    from: new Date(range.from).toISOString(),
    to: new Date(range.to).toISOString(),
    bucketMs,
    buckets: counts.map((c, i) => ({ start: new Date(range.from + i * bucketMs).toISOString(), counts: c })),
    totals,
  };
}

/** Archived rows without a twin in the current logs (one archived just before a crash stays current too). */
async function notCurrent(db: LogDb, archived: readonly LogRow[]): Promise<LogRow[]> {
  if (archived.length === 0) return [];
  const min = await db.get<{ id: number | null }>('SELECT min(id) AS id FROM log_entries');
  const floor = min?.id ?? Number.POSITIVE_INFINITY;
  // Only ids at or above the oldest current id can be twins; look those up in chunks.
  const candidates = archived.filter((r) => r.id >= floor).map((r) => r.id);
  const twins = new Set<number>();
  for (let i = 0; i < candidates.length; i += 500) {
    const chunk = candidates.slice(i, i + 500);
    const found = await db.all<{ id: number }>(`SELECT id FROM log_entries WHERE id IN (${chunk.map(() => '?').join(', ')})`, chunk);
    for (const f of found) twins.add(f.id);
  }
  return twins.size ? archived.filter((r) => !twins.has(r.id)) : [...archived];
}
