import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sqlite3 from 'sqlite3';

export type SqlValue = string | number | null;

/**
 * The log store's own SQLite file, opened with the sqlite3 driver directly rather than a
 * second Sequelize instance: batches go in as multi-row inserts inside one transaction,
 * FTS5 needs a virtual table and triggers that an ORM cannot describe, export streams
 * page by page, and Sequelize would log its SQL into the very logger this store receives.
 */
export class LogDb {
  private constructor(private readonly db: sqlite3.Database) {}

  static async open(file: string): Promise<LogDb> {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const raw = await new Promise<sqlite3.Database>((resolve, reject) => {
      const db = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(db)));
    });
    const db = new LogDb(raw);
    await db.exec('PRAGMA busy_timeout = 5000');
    // Must precede the first table: trimmed pages go back to the file system with incremental_vacuum.
    await db.exec('PRAGMA auto_vacuum = INCREMENTAL');
    await db.exec('PRAGMA journal_mode = WAL');
    await db.exec('PRAGMA synchronous = NORMAL');
    await migrateLogDb(db);
    return db;
  }

  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.db.exec(sql, (err) => (err ? reject(err) : resolve())));
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number; lastID: number }> {
    return new Promise((resolve, reject) =>
      this.db.run(sql, params, function (this: sqlite3.RunResult, err: Error | null) {
        if (err) reject(err);
        else resolve({ changes: this.changes, lastID: this.lastID });
      }),
    );
  }

  all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return new Promise((resolve, reject) => this.db.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as T[]))));
  }

  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => this.db.close((err) => (err ? reject(err) : resolve())));
  }
}

/** The store's schema, versioned by PRAGMA user_version (this file is not the main database). */
const steps: string[] = [
  `CREATE TABLE log_entries (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     time INTEGER NOT NULL,
     level TEXT NOT NULL,
     source TEXT NOT NULL,
     message TEXT NOT NULL,
     fields TEXT NOT NULL,
     request_id TEXT,
     user_id INTEGER
   );
   CREATE INDEX log_entries_time ON log_entries (time, id);
   CREATE INDEX log_entries_source_time ON log_entries (source, time);
   CREATE INDEX log_entries_request ON log_entries (request_id) WHERE request_id IS NOT NULL;
   CREATE VIRTUAL TABLE log_fts USING fts5 (message, fields, content = 'log_entries', content_rowid = 'id');
   CREATE TRIGGER log_entries_fts_insert AFTER INSERT ON log_entries BEGIN
     INSERT INTO log_fts (rowid, message, fields) VALUES (new.id, new.message, new.fields);
   END;
   CREATE TRIGGER log_entries_fts_delete AFTER DELETE ON log_entries BEGIN
     INSERT INTO log_fts (log_fts, rowid, message, fields) VALUES ('delete', old.id, old.message, old.fields);
   END;
   CREATE TABLE log_sources (source TEXT PRIMARY KEY, last_time INTEGER NOT NULL);
   CREATE TABLE log_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  // Message codes: entries written before have none and keep showing their English text.
  `ALTER TABLE log_entries ADD COLUMN code TEXT;
   ALTER TABLE log_entries ADD COLUMN params TEXT;`,
];

async function migrateLogDb(db: LogDb): Promise<void> {
  const row = await db.get<{ user_version: number }>('PRAGMA user_version');
  const version = row?.user_version ?? 0;
  for (let i = version; i < steps.length; i++) {
    await db.exec(`BEGIN; ${steps[i]}; PRAGMA user_version = ${i + 1}; COMMIT;`);
  }
}
