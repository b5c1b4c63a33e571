import type { Response } from 'express';
import {
  logLimits,
  type AppLogBatch,
  type AppLogResult,
  type LogEntry,
  type LogExportQuery,
  type LogHistogram,
  type LogHistogramQuery,
  type LogListQuery,
  type LogPage,
  type LogSettings,
  type LogStatus,
} from '../../../../shared/src/api/logs/logs.ts';
import { findCoreApp, mayOpenCoreApp } from '../../../../shared/src/apps.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import type { Clock } from '../../core/clock.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { redactSecrets } from '../../core/redact.ts';
import type { TopicPublisher } from '../../core/topics/topic-provider.ts';
import { KeyedLimiter } from '../../core/keyed-limiter.ts';
import { ArchiveReader, archiveDays, trimArchive } from './log-archive.ts';
import { decodeCursor, encodeCursor, type LogCursor } from './log-cursor.ts';
import { streamExport } from './log-export.ts';
import { newestFirst, toFilter, type LogFilter } from './log-filter.ts';
import { histogram } from './log-histogram.ts';
import type { LogStore } from './log-store.ts';
import { trimLogs, type TrimResult } from './log-trim.ts';
import { rowToEntry, type LogRow } from './logs.model.ts';
import { currentPage, defaultSettings, entryStats, readState, sourceNames, usedBytes, writeState } from './logs.queries.ts';

/** Where the archive lives. Pools arrive with the Storage area; until then both answer nothing. */
export interface LogArchiveLocation {
  /** The archive directory on a pool (null: the first pool); null when no such pool exists. */
  dir(pool: string | null): string | null;
  /** Pools that can hold the archive. */
  pools(): string[];
}

export interface LogsDeps {
  store: LogStore;
  clock: Clock;
  archive: LogArchiveLocation;
  /** Most entries one export holds (spec: 1,000,000; smaller in tests). */
  exportLimit?: number;
}

const tailSnapshotSize = 100;

export class LogsService {
  private settings: LogSettings = defaultSettings;
  private readonly archiveReader = new ArchiveReader();
  private readonly limiter: KeyedLimiter;
  private publisher: TopicPublisher | null = null;

  constructor(private readonly deps: LogsDeps) {
    // Per app: a burst of 200 entries, then 20 a second (spec section 8).
    this.limiter = new KeyedLimiter(logLimits.appBurst, logLimits.appPerSecond, deps.clock);
    deps.store.onWritten((entries) => this.publisher?.publish(topicName.logTail, 'entries', entries));
  }

  /** Reads the saved settings; call once the store is open. */
  async init(): Promise<void> {
    this.settings = { ...defaultSettings, ...((await readState<LogSettings>(this.deps.store.db, 'settings')) ?? {}) };
  }

  /** The live tail publishes written batches once the topics hub exists. */
  publishTo(publisher: TopicPublisher): void {
    this.publisher = publisher;
  }

  async list(query: LogListQuery): Promise<LogPage> {
    const cursor = query.cursor ? decodeCursor(query.cursor) : null;
    const limit = query.limit ?? logLimits.listDefault;
    const { rows, more } = await this.page(toFilter(query), cursor, limit);
    const last = rows[rows.length - 1];
    return { items: rows.map(rowToEntry), nextCursor: more && last ? encodeCursor({ time: last.time, id: last.id }) : null };
  }

  async export(query: LogExportQuery, res: Response): Promise<void> {
    const filter = toFilter(query);
    const stamp = new Date(this.deps.clock.now())
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    await streamExport({
      res,
      format: query.format ?? 'jsonl',
      limit: this.deps.exportLimit ?? logLimits.exportMax,
      fileName: `cellar-logs-${stamp}`,
      page: (cursor, size) => this.page(filter, cursor, size),
    });
  }

  /** Entries per level over equal time buckets of the range (the Logs app's histogram). */
  async histogram(query: LogHistogramQuery): Promise<LogHistogram> {
    const to = query.to ? Date.parse(query.to) : this.deps.clock.now();
    const from = query.from ? Date.parse(query.from) : to - logLimits.histogramDefaultSpanMs;
    if (from > to) throw new ProblemError('logs.range.invalid', { from: new Date(from).toISOString(), to: new Date(to).toISOString() });
    await this.deps.store.flush();
    const filter: LogFilter = { ...toFilter(query), from, to };
    const dir = this.readableArchiveDir();
    const archived = dir ? await this.archiveReader.matching(dir, filter) : [];
    return histogram(this.deps.store.db, filter, { from, to, buckets: query.buckets ?? logLimits.histogramBucketsDefault }, archived);
  }

  /** Newest first over the current logs and the archive; the cursor is the last row's (time, id). */
  private async page(filter: LogFilter, cursor: LogCursor | null, limit: number): Promise<{ rows: LogRow[]; more: boolean }> {
    // Entries still in the write buffer belong to the answer (a search right after a failure finds it).
    await this.deps.store.flush();
    const current = await currentPage(this.deps.store.db, filter, cursor, limit + 1);
    const dir = this.readableArchiveDir();
    const archived = dir ? await this.archiveReader.search(dir, filter, cursor, limit + 1) : [];
    const seen = new Set<number>();
    // An entry archived just before a crash may still be current too: ids keep it once.
    const merged = [...current, ...archived].sort(newestFirst).filter((r) => !seen.has(r.id) && seen.add(r.id) !== undefined);
    return { rows: merged.slice(0, limit), more: merged.length > limit };
  }

  async status(): Promise<LogStatus> {
    await this.deps.store.flush();
    const db = this.deps.store.db;
    const stats = await entryStats(db);
    const dir = this.readableArchiveDir();
    const days = dir ? await archiveDays(dir) : [];
    const oldestArchived = dir ? await this.archiveReader.oldest(dir) : null;
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    return {
      settings: this.settings,
      usedBytes: await usedBytes(db),
      entryCount: stats.count,
      oldestEntryAt: iso(stats.oldest),
      newestEntryAt: iso(stats.newest),
      archivePool: this.writableArchiveDir() ? (this.settings.archivePool ?? this.deps.archive.pools()[0] ?? null) : null,
      archiveBytes: days.reduce((sum, d) => sum + d.bytes, 0),
      oldestArchivedAt: iso(oldestArchived),
      archivePools: this.deps.archive.pools(),
    };
  }

  async updateSettings(settings: LogSettings): Promise<LogStatus> {
    if (settings.archive && this.deps.archive.dir(settings.archivePool) === null) {
      throw new ProblemError('logs.archive.no_pool', { pool: settings.archivePool });
    }
    await this.deps.store.exclusive((db) => writeState(db, 'settings', settings));
    this.settings = { ...settings };
    await this.maintain();
    return this.status();
  }

  sources(): Promise<string[]> {
    return this.deps.store.flush().then(() => sourceNames(this.deps.store.db));
  }

  /** Retention and size limit, then the archive's retention; scheduled, and run at once when the settings change. */
  async maintain(): Promise<TrimResult & { archiveDaysRemoved: number }> {
    await this.deps.store.flush();
    const now = this.deps.clock.now();
    const trimmed = await trimLogs(this.deps.store, this.settings, this.writableArchiveDir(), now);
    // Also when archiving is off: the archive stays readable then, and must not outlive its retention.
    const dir = this.readableArchiveDir();
    const archiveDaysRemoved = dir ? await trimArchive(dir, this.settings.archiveRetentionDays, now) : 0;
    return { ...trimmed, archiveDaysRemoved };
  }

  /** A line an app's backend wrote (stdout as info, stderr as warn), under the same per-app limit as batches. */
  appOutput(app: string, level: 'info' | 'warn', message: string): void {
    if (this.limiter.take(app, 1) === 0) return;
    this.deps.store.write({
      time: new Date(this.deps.clock.now()).toISOString(),
      level,
      source: `app/${app}`,
      message,
      fields: {},
      requestId: null,
      userId: null,
    });
  }

  /**
   * Entries a core app wrote in a session (POST /api/apps/{app}/logs): only of a core app the
   * caller may open, and each user spends their own budget of that app, so nobody writes under
   * an app they cannot open or uses up the entries of the app's other users.
   */
  coreAppBatch(app: string, caller: Principal, requestId: string | null, batch: AppLogBatch): AppLogResult {
    const core = findCoreApp(app);
    if (!core || !mayOpenCoreApp(core, caller)) {
      throw new ProblemError('auth.permission.denied', undefined, { detail: 'Only a core app the caller may open writes here' });
    }
    return this.writeBatch(app, `${app} user ${caller.id}`, caller.id, requestId, batch, false);
  }

  /** `keepDebug`: an installed app whose log level an administrator set to debug. */
  appBatch(app: string, userId: number, requestId: string | null, batch: AppLogBatch, keepDebug = false): AppLogResult {
    return this.writeBatch(app, app, userId, requestId, batch, keepDebug);
  }

  /** `budget`: the limiter's key the entries are taken from. */
  private writeBatch(app: string, budget: string, userId: number, requestId: string | null, batch: AppLogBatch, keepDebug: boolean): AppLogResult {
    const wanted = keepDebug ? batch.entries : batch.entries.filter((e) => e.level !== 'debug');
    const granted = this.limiter.take(budget, wanted.length);
    const time = new Date(this.deps.clock.now()).toISOString();
    for (const entry of wanted.slice(0, granted)) {
      this.deps.store.write({
        time,
        level: entry.level,
        source: `app/${app}`,
        message: entry.message,
        fields: redactSecrets(entry.fields ?? {}) as Record<string, unknown>,
        requestId: entry.requestId ?? requestId,
        userId,
      });
    }
    return { accepted: granted, dropped: wanted.length - granted, debugIgnored: batch.entries.length - wanted.length };
  }

  /** Snapshot of the live tail: the newest entries, newest first. */
  async tailSnapshot(): Promise<LogEntry[]> {
    await this.deps.store.flush();
    const rows = await currentPage(this.deps.store.db, toFilter({}), null, tailSnapshotSize);
    return rows.map(rowToEntry);
  }

  /** The archive is read wherever it may be, even after it was switched off. */
  private readableArchiveDir(): string | null {
    return this.deps.archive.dir(this.settings.archivePool);
  }

  private writableArchiveDir(): string | null {
    return this.settings.archive ? this.deps.archive.dir(this.settings.archivePool) : null;
  }
}

/** Until the Storage area brings pools there is nowhere to archive to. */
export const noArchive: LogArchiveLocation = { dir: () => null, pools: () => [] };
