import { BackupFormatError, readBackup } from '../../../shared/src/backup/backup-file.ts';
import type { BackupTable, BackupView } from '../bridge.ts';
import { ConsoleError } from './console-error.ts';

/** Columns that hold secrets or their hashes: read, never shown (the file itself is the secret's keeper). */
const secretColumn = /hash|secret|key|password|token|totp|recovery|salt|private/i;
const maxRows = 500;

type Cell = BackupTable['rows'][number][number];

function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** A part's arrays of rows become tables; a part that is one record (region) becomes a one-row table. */
function tablesOf(partName: string, value: unknown): BackupTable[] {
  const records = (rows: unknown[]): rows is Record<string, unknown>[] => rows.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r));
  const table = (name: string, rows: Record<string, unknown>[]): BackupTable => {
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((c) => !secretColumn.test(c));
    return { name, columns, rows: rows.slice(0, maxRows).map((r) => columns.map((c) => cellOf(r[c]))) };
  };
  if (Array.isArray(value)) return records(value) ? [table(partName, value)] : [];
  if (typeof value !== 'object' || value === null) return [];
  const entries = Object.entries(value);
  if (entries.every(([, v]) => !Array.isArray(v))) return [table(partName, [value as Record<string, unknown>])];
  return entries.flatMap(([name, v]) => (Array.isArray(v) && records(v) ? [table(name, v)] : []));
}

function countsOf(value: unknown): Record<string, number> {
  if (Array.isArray(value)) return { items: value.length };
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (Array.isArray(v) ? [[k, v.length]] : [])));
}

/**
 * Opens a backup offline with the code the daemon reads it with (shared/src/backup), and shows
 * each part as read-only tables without secret columns. Wrong passwords and damaged files answer
 * the backup format's own codes.
 */
export async function readBackupView(file: Uint8Array, password: string): Promise<BackupView> {
  if (password.length === 0 || password.length > 1024) throw new ConsoleError('console.backup.password_missing');
  const content = await readBackup(file, password).catch((err: unknown) => {
    if (err instanceof BackupFormatError) throw new ConsoleError(err.code, err.params);
    throw err;
  });
  return {
    createdAt: content.createdAt,
    box: content.box,
    parts: Object.entries(content.parts).map(([name, value]) => ({ name, counts: countsOf(value), tables: tablesOf(name, value) })),
  };
}
