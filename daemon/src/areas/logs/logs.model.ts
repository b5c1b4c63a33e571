import type { LogEntry, LogLevel, LogParams } from '../../../../shared/src/api/logs/logs.ts';

/** One row of log_entries; time is epoch milliseconds so it sorts and compares as a number. */
export interface LogRow {
  id: number;
  time: number;
  level: LogLevel;
  source: string;
  message: string;
  /** JSON object text. */
  fields: string;
  request_id: string | null;
  user_id: number | null;
  code: string | null;
  /** JSON object text of the code's params; null without a code. */
  params: string | null;
}

export const rowColumns = 'id, time, level, source, message, fields, request_id, user_id, code, params';

export function rowToEntry(row: LogRow): LogEntry {
  return {
    id: row.id,
    time: new Date(row.time).toISOString(),
    level: row.level,
    source: row.source,
    message: row.message,
    fields: parseFields(row.fields),
    requestId: row.request_id,
    userId: row.user_id,
    code: row.code,
    params: row.code === null || row.params === null ? {} : parseParams(row.params),
  };
}

export function entryToRow(entry: LogEntry): LogRow {
  return {
    id: entry.id,
    time: Date.parse(entry.time),
    level: entry.level,
    source: entry.source,
    message: entry.message,
    fields: JSON.stringify(entry.fields),
    request_id: entry.requestId,
    user_id: entry.userId,
    // Archived days from before message codes have neither.
    code: entry.code ?? null,
    params: entry.code ? JSON.stringify(entry.params ?? {}) : null,
  };
}

/** Only scalar values survive: a text may name them, nothing else. */
function parseParams(text: string): LogParams {
  const params: LogParams = {};
  for (const [key, value] of Object.entries(parseFields(text))) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') params[key] = value;
  }
  return params;
}

function parseFields(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { raw: text };
  }
}
