import { ProblemError } from '../../core/problem-error.ts';

/** The position after the last entry of a page: entries order by time, then id, both descending. */
export interface LogCursor {
  time: number;
  id: number;
}

const prefix = 'l1.';

/** Opaque to clients; stable because ids are never reused (AUTOINCREMENT) and travel into the archive. */
export function encodeCursor(cursor: LogCursor): string {
  return prefix + Buffer.from(`${cursor.time}:${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(text: string): LogCursor {
  const invalid = () => new ProblemError('logs.cursor.invalid');
  if (!text.startsWith(prefix)) throw invalid();
  const body = Buffer.from(text.slice(prefix.length), 'base64url').toString('utf8');
  const match = /^(\d{1,15}):(\d{1,15})$/.exec(body);
  if (!match) throw invalid();
  const time = Number(match[1]);
  const id = Number(match[2]);
  if (!Number.isSafeInteger(time) || !Number.isSafeInteger(id)) throw invalid();
  return { time, id };
}
