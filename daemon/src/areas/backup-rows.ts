import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { ProblemError } from '../core/problem-error.ts';

/** One row as SQLite answers it: booleans are 0 and 1. */
export type Row = Record<string, string | number | null>;

interface Column {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Every row of a table, in primary key order. */
export async function readRows(db: Sequelize, table: string, transaction?: Transaction): Promise<Row[]> {
  return db.query<Row>(`SELECT * FROM ${quote(table)} ORDER BY rowid`, { type: QueryTypes.SELECT, transaction });
}

async function columnsOf(db: Sequelize, table: string): Promise<Column[]> {
  return db.query<Column>(`PRAGMA table_info(${quote(table)})`, { type: QueryTypes.SELECT });
}

/**
 * Checks rows from a backup against the table as this box has it: known columns only, scalar
 * values of the column's type, required columns present. A backup of an older version may lack
 * columns that have a default. A part that exports some columns of a table names them in `only`:
 * its rows are checked against those alone (the others are this box's, never the backup's).
 */
export async function checkRows(db: Sequelize, part: string, table: string, rows: unknown, only?: readonly string[]): Promise<Row[]> {
  const invalid = (detail: string) => new ProblemError('backup.part.invalid', { part }, { detail: `${table}: ${detail}` });
  if (!Array.isArray(rows)) throw invalid('not a list of rows');
  const columns = new Map((await columnsOf(db, table)).filter((c) => !only || only.includes(c.name)).map((c) => [c.name, c]));
  const required = [...columns.values()].filter((c) => c.notnull && c.dflt_value === null && !(c.pk && c.type === 'INTEGER'));
  for (const row of rows as unknown[]) {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) throw invalid('a row is not an object');
    for (const [name, value] of Object.entries(row)) {
      const column = columns.get(name);
      if (!column) throw invalid(`unknown column ${name}`);
      if (value === null) {
        if (column.notnull) throw invalid(`${name} is empty`);
        continue;
      }
      const numeric = /INT|BOOL/i.test(column.type);
      if (numeric ? !Number.isSafeInteger(value) : typeof value !== 'string') throw invalid(`${name} has a value of the wrong type`);
    }
    for (const c of required) if (!(c.name in row)) throw invalid(`${c.name} is missing`);
  }
  // Rows that would collide in the table fail the restore's transaction halfway: refused here instead.
  for (const key of await uniqueKeysOf(db, table, columns)) {
    const seen = new Set<string>();
    for (const row of rows as Row[]) {
      const values = key.map((k) => row[k.name]);
      if (values.some((v) => v === null || v === undefined)) continue;
      const id = JSON.stringify(values.map((v, i) => (key[i]?.nocase && typeof v === 'string' ? v.toLowerCase() : v)));
      if (seen.has(id)) throw invalid(`two rows have the same ${key.map((k) => k.name).join(', ')}`);
      seen.add(id);
    }
  }
  return rows as Row[];
}

/** The table's unique keys (its integer primary key and unique indexes) among `columns`, with each column's case rule. */
async function uniqueKeysOf(db: Sequelize, table: string, columns: Map<string, Column>): Promise<{ name: string; nocase: boolean }[][]> {
  const keys: { name: string; nocase: boolean }[][] = [];
  // A single INTEGER PRIMARY KEY is the rowid and has no index of its own; a composite key has one.
  const primary = [...columns.values()].filter((c) => c.pk);
  if (primary.length === 1 && primary[0]?.type === 'INTEGER') keys.push([{ name: primary[0].name, nocase: false }]);
  const indexes = await db.query<{ name: string; unique: number }>(`PRAGMA index_list(${quote(table)})`, { type: QueryTypes.SELECT });
  for (const index of indexes.filter((i) => i.unique === 1)) {
    const parts = await db.query<{ name: string | null; coll: string; key: number }>(`PRAGMA index_xinfo(${quote(index.name)})`, { type: QueryTypes.SELECT });
    const key = parts.filter((p) => p.key === 1).map((p) => ({ name: p.name ?? '', nocase: p.coll.toUpperCase() === 'NOCASE' }));
    if (key.every((k) => columns.has(k.name))) keys.push(key);
  }
  return keys;
}

/** Inserts rows in batches below SQLite's limit of bound values. */
async function insertRows(db: Sequelize, table: string, rows: readonly Row[], transaction: Transaction, conflict = ''): Promise<void> {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  if (rows.length === 0 || names.length === 0) return;
  const perBatch = Math.max(1, Math.floor(30_000 / names.length));
  for (let i = 0; i < rows.length; i += perBatch) {
    const batch = rows.slice(i, i + perBatch);
    const values = batch.map(() => `(${names.map(() => '?').join(',')})`).join(',');
    const replacements = batch.flatMap((r) => names.map((n) => r[n] ?? null));
    await db.query(`INSERT INTO ${quote(table)} (${names.map(quote).join(',')}) VALUES ${values} ${conflict}`, { replacements, transaction });
  }
}

/** For tables nothing else points at: every row replaced. */
export async function replaceRows(db: Sequelize, table: string, rows: readonly Row[], transaction: Transaction): Promise<void> {
  await db.query(`DELETE FROM ${quote(table)}`, { transaction });
  await insertRows(db, table, rows, transaction);
}

/**
 * For tables other areas point at with cascading keys (users, groups, shares): rows missing from
 * the backup are deleted (their dependants with them), the others updated in place, so what
 * hangs on a kept row (desktop items, trash, thumbnails) stays. Unique columns are first moved
 * out of the way (`temporary` SQL per column) so rows may swap names or ids among each other.
 */
export async function syncRows(
  db: Sequelize,
  table: string,
  rows: readonly Row[],
  transaction: Transaction,
  options: { key: string; temporary: Record<string, string> },
): Promise<void> {
  const keys = rows.map((r) => r[options.key]);
  await db.query(`DELETE FROM ${quote(table)} WHERE ${quote(options.key)} NOT IN (SELECT value FROM json_each(?))`, {
    replacements: [JSON.stringify(keys)],
    transaction,
  });
  const moves = Object.entries(options.temporary).map(([column, sql]) => `${quote(column)} = ${sql}`);
  if (moves.length > 0) await db.query(`UPDATE ${quote(table)} SET ${moves.join(', ')}`, { transaction });
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((n) => n !== options.key);
  const update = names.length > 0 ? `DO UPDATE SET ${names.map((n) => `${quote(n)} = excluded.${quote(n)}`).join(', ')}` : 'DO NOTHING';
  await insertRows(db, table, rows, transaction, `ON CONFLICT(${quote(options.key)}) ${update}`);
}

/** The ids a table holds now (inside the restore transaction): rows pointing elsewhere are left out. */
export async function idsOf(db: Sequelize, table: string, transaction: Transaction): Promise<Set<number>> {
  const rows = await db.query<{ id: number }>(`SELECT id FROM ${quote(table)}`, { type: QueryTypes.SELECT, transaction });
  return new Set(rows.map((r) => r.id));
}
