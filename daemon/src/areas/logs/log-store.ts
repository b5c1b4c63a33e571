import type { LogEntry } from '../../../../shared/src/api/logs/logs.ts';
import type { LogRecord, LogSink } from '../../core/logger.ts';
import { LogDb } from './log-db.ts';
import { rowToEntry, type LogRow } from './logs.model.ts';

export interface LogStoreOptions {
  /** Longest time an entry waits in memory before it is written. */
  flushMs?: number;
  /** A batch this large is written at once. */
  maxBatch?: number;
  /** Entries kept in memory while the file is not open or cannot keep up; beyond, the oldest go. */
  maxBuffered?: number;
  /** Failures of the store itself; they cannot go to the logger that feeds it. */
  onError?: (err: unknown) => void;
}

const maxTextBytes = 64 * 1024;
const rowsPerInsert = 100;

/**
 * The log sink: write() only appends to a memory buffer, so logging never waits for the disk.
 * Batches go into SQLite every ~200 ms (or sooner when large) in one transaction each.
 * Entries that arrive before the file is open wait in the buffer, so nothing from the first
 * moment of the daemon is lost.
 */
export class LogStore implements LogSink {
  private dbHandle: LogDb | null = null;
  private buffer: LogRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lock: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly listeners: ((entries: LogEntry[]) => void)[] = [];
  /** Entries dropped because the buffer was full. */
  lost = 0;

  constructor(private readonly options: LogStoreOptions = {}) {}

  async open(file: string): Promise<void> {
    this.dbHandle = await LogDb.open(file);
    if (this.buffer.length) this.schedule();
  }

  get db(): LogDb {
    if (!this.dbHandle) throw new Error('the log store is not open');
    return this.dbHandle;
  }

  write(record: LogRecord): void {
    if (this.closed) return;
    this.buffer.push(record);
    const max = this.options.maxBuffered ?? 100_000;
    if (this.buffer.length > max) {
      this.lost += this.buffer.length - max;
      this.buffer.splice(0, this.buffer.length - max);
    }
    this.schedule();
  }

  /** Called with every written batch, oldest first (the live tail). */
  onWritten(listener: (entries: LogEntry[]) => void): void {
    this.listeners.push(listener);
  }

  /** Writes what is buffered now; reads that must see recent entries await this first. */
  flush(): Promise<void> {
    if (!this.dbHandle) return Promise.resolve();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.exclusive((db) => this.writeBatches(db));
  }

  /** Runs write work one at a time: one connection can hold only one transaction. */
  exclusive<T>(work: (db: LogDb) => Promise<T>): Promise<T> {
    const run = this.lock.then(() => work(this.db));
    this.lock = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    if (!this.dbHandle) return;
    await this.flush().catch((err: unknown) => this.options.onError?.(err));
    this.closed = true;
    await this.lock;
    await this.dbHandle.close();
    this.dbHandle = null;
  }

  private schedule(): void {
    if (!this.dbHandle) return;
    if (this.buffer.length >= (this.options.maxBatch ?? 500)) {
      void this.flush().catch((err: unknown) => this.options.onError?.(err));
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch((err: unknown) => this.options.onError?.(err));
    }, this.options.flushMs ?? 200);
    this.timer.unref();
  }

  private async writeBatches(db: LogDb): Promise<void> {
    while (this.buffer.length) {
      const batch = this.buffer.splice(0, this.options.maxBatch ?? 500);
      const rows = batch.map(recordToRow);
      await db.exec('BEGIN IMMEDIATE');
      try {
        for (let i = 0; i < rows.length; i += rowsPerInsert) await insertRows(db, rows.slice(i, i + rowsPerInsert));
        await touchSources(db, rows);
        await db.exec('COMMIT');
      } catch (err) {
        await db.exec('ROLLBACK').catch(() => undefined);
        throw err;
      }
      if (this.listeners.length) {
        const entries = rows.map(rowToEntry);
        for (const listener of this.listeners) listener(entries);
      }
    }
  }
}

async function insertRows(db: LogDb, rows: LogRow[]): Promise<void> {
  const values = rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
  const params = rows.flatMap((r) => [r.time, r.level, r.source, r.message, r.fields, r.request_id, r.user_id, r.code, r.params]);
  const sql = `INSERT INTO log_entries (time, level, source, message, fields, request_id, user_id, code, params) VALUES ${values}`;
  const { lastID } = await db.run(sql, params);
  // One multi-row insert into an AUTOINCREMENT table under our own lock takes consecutive ids.
  rows.forEach((row, i) => (row.id = lastID - rows.length + 1 + i));
}

async function touchSources(db: LogDb, rows: LogRow[]): Promise<void> {
  const latest = new Map<string, number>();
  for (const row of rows) latest.set(row.source, Math.max(latest.get(row.source) ?? 0, row.time));
  for (const [source, time] of latest) {
    await db.run(
      'INSERT INTO log_sources (source, last_time) VALUES (?, ?) ON CONFLICT (source) DO UPDATE SET last_time = max(last_time, excluded.last_time)',
      [source, time],
    );
  }
}

function recordToRow(record: LogRecord): LogRow {
  const parsed = Date.parse(record.time);
  return {
    id: 0,
    time: Number.isNaN(parsed) ? Date.now() : parsed,
    level: record.level,
    source: record.source,
    message: record.message.length > maxTextBytes ? `${record.message.slice(0, maxTextBytes)}…` : record.message,
    fields: fieldsText(record.fields),
    request_id: record.requestId,
    user_id: record.userId,
    code: record.code ?? null,
    params: record.code ? JSON.stringify(record.params ?? {}) : null,
  };
}

function fieldsText(fields: Record<string, unknown>): string {
  let text: string;
  try {
    text = JSON.stringify(fields, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)) ?? '{}';
  } catch {
    return JSON.stringify({ unserialisable: true });
  }
  return text.length > maxTextBytes ? JSON.stringify({ truncated: true, preview: text.slice(0, 1024) }) : text;
}
