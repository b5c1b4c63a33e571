import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { createGunzip, gzip } from 'node:zlib';
import type { LogCursor } from './log-cursor.ts';
import { newestFirst, rowMatches, type LogFilter } from './log-filter.ts';
import { entryToRow, rowToEntry, type LogRow } from './logs.model.ts';

const gzipAsync = promisify(gzip);
const dayMs = 86_400_000;
const filePattern = /^cellar-logs-(\d{4}-\d{2}-\d{2})\.jsonl\.gz$/;

export interface ArchiveDay {
  /** Start of the UTC day, epoch milliseconds. */
  start: number;
  file: string;
  bytes: number;
}

function fileOfDay(dir: string, time: number): string {
  return path.join(dir, `cellar-logs-${new Date(time).toISOString().slice(0, 10)}.jsonl.gz`);
}

/**
 * Appends entries to the archive: one gzip file per UTC day holding JSON lines (LogEntry with
 * its id). Each append adds a gzip member, which gunzip reads as one stream; the file is synced
 * before the caller deletes the rows from the current logs.
 */
export async function appendToArchive(dir: string, rows: readonly LogRow[]): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o750 });
  const byFile = new Map<string, LogRow[]>();
  for (const row of rows) {
    const file = fileOfDay(dir, row.time);
    byFile.set(file, [...(byFile.get(file) ?? []), row]);
  }
  for (const [file, dayRows] of byFile) {
    const text = dayRows.map((r) => JSON.stringify(rowToEntry(r))).join('\n') + '\n';
    const handle = await open(file, 'a', 0o640);
    try {
      await handle.write(await gzipAsync(text));
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

/** The archive's daily files, newest day first. */
export async function archiveDays(dir: string): Promise<ArchiveDay[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const days: ArchiveDay[] = [];
  for (const name of names) {
    const match = filePattern.exec(name);
    if (!match) continue;
    const file = path.join(dir, name);
    days.push({ start: Date.parse(`${match[1]}T00:00:00Z`), file, bytes: (await stat(file)).size });
  }
  return days.sort((a, b) => b.start - a.start);
}

/**
 * Deletes the daily files whose whole day lies more than `retentionDays` before `now`; answers
 * how many went. A day still inside the window stays whole, so a search never sees half a day.
 */
export async function trimArchive(dir: string, retentionDays: number, now: number): Promise<number> {
  const cutoff = now - retentionDays * dayMs;
  let removed = 0;
  for (const day of await archiveDays(dir)) {
    if (day.start + dayMs > cutoff) continue;
    await unlink(day.file).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    removed += 1;
  }
  return removed;
}

/** Reads one day file; a torn last member (crash while appending) costs only that member. */
function readDay(file: string): Promise<LogRow[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const input = createReadStream(file);
    const gunzip = createGunzip();
    const finish = () => resolve(parseLines(Buffer.concat(chunks).toString('utf8')));
    input.on('error', reject);
    gunzip.on('data', (chunk: Buffer) => chunks.push(chunk));
    gunzip.on('end', finish);
    gunzip.on('error', finish);
    input.pipe(gunzip);
  });
}

function parseLines(text: string): LogRow[] {
  const rows: LogRow[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      rows.push(entryToRow(JSON.parse(line)));
    } catch {
      // A torn line is skipped; the rest of the day stays readable.
    }
  }
  return rows.sort(newestFirst);
}

/** Search over the archive, newest first; keeps the last few parsed days for paging and export. */
export class ArchiveReader {
  private readonly cache = new Map<string, LogRow[]>();

  async search(dir: string, filter: LogFilter, cursor: LogCursor | null, limit: number): Promise<LogRow[]> {
    const found: LogRow[] = [];
    for (const day of await archiveDays(dir)) {
      const end = day.start + dayMs - 1;
      if (filter.from !== null && end < filter.from) break;
      if (filter.to !== null && day.start > filter.to) continue;
      if (cursor && day.start > cursor.time) continue;
      for (const row of await this.rowsOf(day)) {
        if (rowMatches(filter, row, cursor)) found.push(row);
      }
      // Days are disjoint and newest first: once a day fills the page, older days cannot enter it.
      if (found.length >= limit) break;
    }
    return found.sort(newestFirst).slice(0, limit);
  }

  /** Every archived entry that matches, in no particular order (counting, not paging). */
  async matching(dir: string, filter: LogFilter): Promise<LogRow[]> {
    const found: LogRow[] = [];
    for (const day of await archiveDays(dir)) {
      if (filter.from !== null && day.start + dayMs - 1 < filter.from) break;
      if (filter.to !== null && day.start > filter.to) continue;
      for (const row of await this.rowsOf(day)) if (rowMatches(filter, row, null)) found.push(row);
    }
    return found;
  }

  /** Oldest archived entry time, or null for an empty archive. */
  async oldest(dir: string): Promise<number | null> {
    const days = await archiveDays(dir);
    const last = days[days.length - 1];
    if (!last) return null;
    const rows = await this.rowsOf(last);
    return rows.length ? (rows[rows.length - 1] as LogRow).time : null;
  }

  private async rowsOf(day: ArchiveDay): Promise<LogRow[]> {
    const info = await stat(day.file);
    const key = `${day.file}:${info.mtimeMs}:${info.size}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const rows = await readDay(day.file);
    this.cache.set(key, rows);
    if (this.cache.size > 3) this.cache.delete(this.cache.keys().next().value as string);
    return rows;
  }
}
