import path from 'node:path';
import { LogDb } from '../../daemon/src/areas/logs/log-db.ts';

/** Every this many entries one carries the word the search benchmark looks for. */
export const needleEvery = 1000;
export const needle = 'needle';

/**
 * Fills `<dataDir>/logs.sqlite` with `count` entries in one transaction, generated inside SQLite
 * by a recursive CTE (the FTS triggers index them as usual): a million take seconds, not minutes.
 * Settings are stored first so the daemon started on this directory trims nothing.
 */
export async function generateLogs(dataDir: string, count: number): Promise<void> {
  const db = await LogDb.open(path.join(dataDir, 'logs.sqlite'));
  try {
    const now = Date.now();
    // A fixture, not a store: no journal and no syncs while it is built; WAL again for the daemon.
    await db.exec('PRAGMA journal_mode = OFF');
    await db.exec('PRAGMA synchronous = OFF');
    await db.exec('PRAGMA cache_size = -262144');
    await db.exec('BEGIN');
    await db.run(`INSERT INTO log_state (key, value) VALUES ('settings', ?)`, [
      JSON.stringify({ maxBytes: 4 * 1024 ** 3, retentionDays: 3650, archive: false, archiveRetentionDays: 3650, archivePool: null }),
    ]);
    // One entry every 50 ms, ending now: about 14 hours for a million.
    await db.run(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO log_entries (time, level, source, message, fields, request_id, user_id)
       SELECT ? - (? - i) * 50,
              CASE WHEN i % 100 = 0 THEN 'error' WHEN i % 100 < 5 THEN 'warn' WHEN i % 100 < 30 THEN 'debug' ELSE 'info' END,
              CASE WHEN i % 3 = 0 THEN 'daemon' WHEN i % 3 = 1 THEN 'system/smbd' ELSE 'app/org.service.files' END,
              CASE WHEN i % ? = 0 THEN 'upload of ${needle} file ' || i || ' failed' ELSE 'request handled GET /api/files/' || (i % 997) || ' status 200' END,
              '{"component":"http","ms":' || (i % 500) || ',"share":"photos-' || (i % 13) || '"}',
              printf('req-%08d', i / 5),
              1 + i % 7
       FROM n`,
      [count, now, count, needleEvery],
    );
    await db.run(`INSERT INTO log_sources (source, last_time) VALUES ('daemon', ?), ('system/smbd', ?), ('app/org.service.files', ?)`, [now, now, now]);
    await db.exec('COMMIT');
    await db.exec('PRAGMA journal_mode = WAL');
  } finally {
    await db.close();
  }
}
