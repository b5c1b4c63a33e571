import type { LogEntry, LogLevel } from '../../../../shared/src/api/logs.ts';

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
}

export const rowColumns = 'id, time, level, source, message, fields, request_id, user_id';

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
  };
}

function parseFields(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { raw: text };
  }
}
