import type { Response } from 'express';
import type { LogExportFormat } from '../../../../shared/src/api/logs/logs.ts';
import type { LogCursor } from './log-cursor.ts';
import { rowToEntry, type LogRow } from './logs.model.ts';

export interface ExportOptions {
  res: Response;
  format: LogExportFormat;
  limit: number;
  /** Without extension. */
  fileName: string;
  page(cursor: LogCursor | null, size: number): Promise<{ rows: LogRow[]; more: boolean }>;
}

const pageSize = 1000;

/**
 * Streams entries newest first, page by page from the store, and waits for 'drain' whenever
 * the socket's buffer is full: memory stays flat however many entries go out. Stops early
 * when the client goes away.
 */
export async function streamExport(options: ExportOptions): Promise<void> {
  const { res, format, limit } = options;
  const jsonl = format === 'jsonl';
  res.status(200);
  res.setHeader('Content-Type', jsonl ? 'application/x-ndjson; charset=utf-8' : 'text/plain; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${options.fileName}.${jsonl ? 'jsonl' : 'log'}"`);
  res.setHeader('Cache-Control', 'no-store');
  let gone = false;
  res.once('close', () => (gone = true));
  let cursor: LogCursor | null = null;
  let written = 0;
  while (written < limit && !gone) {
    const { rows, more } = await options.page(cursor, Math.min(pageSize, limit - written));
    if (rows.length === 0) break;
    const text = rows.map((row) => (jsonl ? JSON.stringify(rowToEntry(row)) : textLine(row)) + '\n').join('');
    written += rows.length;
    if (!res.write(text)) await drained(res);
    const last = rows[rows.length - 1] as LogRow;
    cursor = { time: last.time, id: last.id };
    if (!more) break;
  }
  res.end();
}

function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** `time LEVEL source [request id] message {fields}`: one entry per line, line breaks escaped. */
export function textLine(row: LogRow): string {
  const entry = rowToEntry(row);
  const request = entry.requestId ? ` [${entry.requestId}]` : '';
  const fields = Object.keys(entry.fields).length ? ` ${row.fields}` : '';
  const message = entry.message.replace(/\r?\n/g, '\\n');
  return `${entry.time} ${entry.level.toUpperCase().padEnd(5)} ${entry.source}${request} ${message}${fields}`;
}
