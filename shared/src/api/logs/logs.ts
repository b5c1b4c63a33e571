import Joi from 'joi';
import { id, isoTime, pageOf, type Page } from '../common.ts';
import { defineRoute } from '../route.ts';
import { codeWordsChars, codeWordsListPattern } from './log-search.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export const logLevels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Limits of spec section 8. */
export const logLimits = {
  listDefault: 200,
  listMax: 1000,
  exportMax: 1_000_000,
  /** 4 GB. */
  maxBytesMax: 4 * 1024 ** 3,
  maxBytesMin: 1024 ** 2,
  appBatchMax: 100,
  appBurst: 200,
  appPerSecond: 20,
  histogramBucketsDefault: 60,
  histogramBucketsMax: 500,
  /** A histogram without `from` covers this span before `to`. */
  histogramDefaultSpanMs: 24 * 3_600_000,
} as const;

/** `daemon`, `system/<service>` or `app/<id>`. */
const sourcePattern = /^(daemon|system\/[A-Za-z0-9@._:-]{1,128}|app\/[a-z0-9][a-z0-9.-]{0,127})$/;
/** A request id as the daemon hands them out or keeps them (X-Request-Id). */
export const requestIdPattern = /^[A-Za-z0-9._:-]{8,128}$/;

export interface LogEntry {
  id: number;
  time: string;
  level: LogLevel;
  source: string;
  message: string;
  fields: Record<string, unknown>;
  requestId: string | null;
  userId: number | null;
  /**
   * What happened as a message code, for a text in the reader's language (`logs.msg.<code>` in
   * the web's dictionaries); null for entries without one (older entries, the journal, apps),
   * which show `message` as it is.
   */
  code: string | null;
  /** The values the code's text names ({} without a code); never a secret. */
  params: LogParams;
}

export type LogParams = Record<string, string | number | boolean>;

export type LogPage = Page<LogEntry>;

export interface LogFilterQuery {
  from?: string;
  to?: string;
  level?: LogLevel[];
  source?: string[];
  /** Words in the message or fields, or an exact request id. */
  search?: string;
  /** Comma-separated `<word>:<code>`: search word `word` (from 0) also matches entries with this message code (its text in the reader's language holds the word). */
  codeWords?: string;
}

export interface LogListQuery extends LogFilterQuery {
  cursor?: string;
  limit?: number;
}

export type LogExportFormat = 'jsonl' | 'text';

export interface LogExportQuery extends LogFilterQuery {
  format?: LogExportFormat;
}

export interface LogHistogramQuery extends LogFilterQuery {
  /** How many equal time buckets split from..to (default 60). */
  buckets?: number;
}

export type LogLevelCounts = Record<LogLevel, number>;

export interface LogHistogramBucket {
  /** Start of the bucket; it ends where the next one starts. */
  start: string;
  counts: LogLevelCounts;
}

export interface LogHistogram {
  from: string;
  to: string;
  bucketMs: number;
  buckets: LogHistogramBucket[];
  totals: LogLevelCounts;
}

export interface LogSettings {
  /** Current logs stay below this size; the oldest entries are trimmed (or archived). */
  maxBytes: number;
  /** Current entries older than this go (to the archive when it is on). */
  retentionDays: number;
  /** Keep trimmed entries as compressed daily files on a pool. */
  archive: boolean;
  /** Archived days older than this are deleted (the archive is read even when switched off, and trimmed too). */
  archiveRetentionDays: number;
  /** The pool of the archive; null means the first pool. */
  archivePool: string | null;
}

export interface LogStatus {
  settings: LogSettings;
  usedBytes: number;
  entryCount: number;
  oldestEntryAt: string | null;
  newestEntryAt: string | null;
  /** Where the archive is written now; null while it is off or no pool can hold it. */
  archivePool: string | null;
  archiveBytes: number;
  oldestArchivedAt: string | null;
  /** Pools that can hold the archive. */
  archivePools: string[];
}

export interface AppLogEntry {
  level: LogLevel;
  message: string;
  fields?: Record<string, unknown>;
  /** The request id of a daemon answer the entry is about; defaults to this request's. */
  requestId?: string;
}

export interface AppLogBatch {
  entries: AppLogEntry[];
}

export interface AppLogResult {
  accepted: number;
  /** Entries over the app's rate (burst 200, then 20 a second). */
  dropped: number;
  /** Debug entries are left out of the store. */
  debugIgnored: number;
}

const level = () => Joi.string().valid(...logLevels);

export const logEntrySchema = Joi.object<LogEntry, true>({
  id: id().required(),
  time: isoTime().required(),
  level: level().required(),
  source: Joi.string().required(),
  message: Joi.string().allow('').required(),
  fields: Joi.object().unknown(true).required(),
  requestId: Joi.string().allow(null).required(),
  userId: id().allow(null).required(),
  code: Joi.string().allow(null).required(),
  params: Joi.object()
    .pattern(Joi.string(), Joi.alternatives(Joi.string().allow(''), Joi.number(), Joi.boolean()))
    .required(),
}).id('LogEntry');

export const logPageSchema = pageOf(logEntrySchema, 'LogPage');

const filterKeys = {
  from: isoTime(),
  to: isoTime(),
  level: Joi.array().items(level()).single().max(4),
  source: Joi.array().items(Joi.string().pattern(sourcePattern)).single().max(50),
  search: Joi.string().trim().min(1).max(500),
  codeWords: Joi.string()
    .pattern(codeWordsListPattern)
    .max(codeWordsChars)
    .description(
      "Where the reader's language words a message code's text: comma-separated `<word>:<code>` entries, each letting search word `word` (counted from 0) also match entries with message code `code`; the first 200 count. The web finds them from its dictionaries; without search it does nothing.",
    ),
};

export const logListQuery = Joi.object<LogListQuery, true>({
  ...filterKeys,
  cursor: Joi.string().max(200),
  limit: Joi.number().integer().min(1).max(logLimits.listMax),
}).id('LogListQuery');

export const logExportQuery = Joi.object<LogExportQuery, true>({
  ...filterKeys,
  format: Joi.string().valid('jsonl', 'text'),
}).id('LogExportQuery');

export const logHistogramQuery = Joi.object<LogHistogramQuery, true>({
  ...filterKeys,
  buckets: Joi.number().integer().min(1).max(logLimits.histogramBucketsMax),
}).id('LogHistogramQuery');

const levelCountsSchema = Joi.object<LogLevelCounts, true>({
  debug: Joi.number().integer().min(0).required(),
  info: Joi.number().integer().min(0).required(),
  warn: Joi.number().integer().min(0).required(),
  error: Joi.number().integer().min(0).required(),
}).id('LogLevelCounts');

export const logHistogramSchema = Joi.object<LogHistogram, true>({
  from: isoTime().required(),
  to: isoTime().required(),
  bucketMs: Joi.number().integer().min(1).required(),
  buckets: Joi.array()
    .items(Joi.object<LogHistogramBucket, true>({ start: isoTime().required(), counts: levelCountsSchema.required() }))
    .required(),
  totals: levelCountsSchema.required(),
}).id('LogHistogram');

export const logSettingsSchema = Joi.object<LogSettings, true>({
  maxBytes: Joi.number().integer().min(logLimits.maxBytesMin).max(logLimits.maxBytesMax).required(),
  retentionDays: Joi.number().integer().min(1).max(3650).required(),
  archive: Joi.boolean().required(),
  archiveRetentionDays: Joi.number().integer().min(1).max(3650).required(),
  archivePool: Joi.string()
    .pattern(/^[A-Za-z][A-Za-z0-9_.:-]{0,254}$/)
    .allow(null)
    .required(),
}).id('LogSettings');

export const logStatusSchema = Joi.object<LogStatus, true>({
  settings: logSettingsSchema.required(),
  usedBytes: Joi.number().integer().min(0).required(),
  entryCount: Joi.number().integer().min(0).required(),
  oldestEntryAt: isoTime().allow(null).required(),
  newestEntryAt: isoTime().allow(null).required(),
  archivePool: Joi.string().allow(null).required(),
  archiveBytes: Joi.number().integer().min(0).required(),
  oldestArchivedAt: isoTime().allow(null).required(),
  archivePools: Joi.array().items(Joi.string()).required(),
}).id('LogStatus');

export const appLogBatchSchema = Joi.object<AppLogBatch, true>({
  entries: Joi.array()
    .items(
      Joi.object<AppLogEntry, true>({
        level: level().required(),
        message: Joi.string().allow('').max(8192).required(),
        fields: Joi.object().unknown(true),
        requestId: Joi.string().pattern(requestIdPattern),
      }),
    )
    .min(1)
    .max(logLimits.appBatchMax)
    .required(),
}).id('AppLogBatch');

export const appLogResultSchema = Joi.object<AppLogResult, true>({
  accepted: Joi.number().integer().min(0).required(),
  dropped: Joi.number().integer().min(0).required(),
  debugIgnored: Joi.number().integer().min(0).required(),
}).id('AppLogResult');

const appParams = Joi.object<{ app: string }, true>({ app: Joi.string().max(128).required() });

export const logsRoutes = {
  appBatch: defineRoute({
    id: 'logs.appBatch',
    method: 'POST',
    path: '/api/apps/{app}/logs',
    access: 'user',
    summary: 'Stores log entries a core app wrote for the signed-in user',
    description:
      'Only the core apps (org.service.*) the caller may open; any other app answers auth.permission.denied. At most 100 entries a request; per app and user a burst of 200 then 20 entries a second, the rest is dropped and counted. Debug entries are left out. Entries get the source app/<app> and the caller as user.',
    params: appParams,
    body: appLogBatchSchema,
    bodyLimit: 1024 * 1024,
    status: 200,
    response: appLogResultSchema,
    errors: ['auth.permission.denied'],
  }),
  list: defineRoute({
    id: 'logs.list',
    method: 'GET',
    path: '/api/logs',
    access: 'admin',
    summary: 'Log entries, newest first, from the current logs and the archive',
    description:
      'Filters: from and to (ISO times, inclusive), level and source (repeatable), search (words in message or fields; a value shaped like a request id also matches that exact request id). nextCursor gives older entries.',
    query: logListQuery,
    status: 200,
    response: logPageSchema,
    errors: ['logs.cursor.invalid'],
  }),
  export: defineRoute({
    id: 'logs.export',
    method: 'GET',
    path: '/api/logs/export',
    access: 'admin',
    summary: 'Downloads the filtered log entries, newest first, as JSON lines (default) or text lines',
    description: 'At most the newest 1,000,000 entries that match. Content-Disposition names the file cellar-logs-<utc>.jsonl (or .log for text).',
    query: logExportQuery,
    status: 200,
    response: { raw: true, contentType: ['application/x-ndjson', 'text/plain'] },
    errors: [],
  }),
  histogram: defineRoute({
    id: 'logs.histogram',
    method: 'GET',
    path: '/api/logs/histogram',
    access: 'admin',
    summary: 'Entries per level in equal time buckets over from..to, with the filters of GET /api/logs',
    description:
      "An operation beyond the spec, for the Logs app's histogram. Counts current and archived entries. to defaults to now, from to 24 hours before to; buckets (1 to 500, default 60) split the range equally, the first starting at from.",
    query: logHistogramQuery,
    status: 200,
    response: logHistogramSchema,
    errors: ['logs.range.invalid'],
  }),
  status: defineRoute({
    id: 'logs.status',
    method: 'GET',
    path: '/api/logs/settings',
    access: 'admin',
    summary: 'Settings, space used, oldest entries and the pools that can hold the archive',
    status: 200,
    response: logStatusSchema,
    errors: [],
  }),
  updateSettings: defineRoute({
    id: 'logs.updateSettings',
    method: 'PUT',
    path: '/api/logs/settings',
    access: 'admin',
    summary: 'Changes size limit, retention and archive; applies them at once',
    body: logSettingsSchema,
    status: 200,
    response: logStatusSchema,
    errors: ['logs.archive.no_pool'],
  }),
  sources: defineRoute({
    id: 'logs.sources',
    method: 'GET',
    path: '/api/logs/sources',
    access: 'admin',
    summary: 'Every source that has written entries: daemon, system/<service>, app/<id>',
    status: 200,
    response: Joi.array<string[]>().items(Joi.string()).id('LogSources'),
    errors: [],
  }),
};
