import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Sequelize } from 'sequelize';
import type { Logger } from '../core/logger.ts';

/**
 * Opens the daemon's SQLite file database: WAL so readers never wait for the writer,
 * foreign keys on (Sequelize turns them on for every connection it opens), and a busy
 * timeout so a transaction's own connection waits briefly instead of failing.
 */
export async function openDatabase(file: string, logger: Logger): Promise<Sequelize> {
  mkdirSync(path.dirname(file), { recursive: true });
  const sequelize = new Sequelize({
    dialect: 'sqlite',
    storage: file,
    logging: (sql) => logger.debug('sql', { component: 'db', sql }),
    define: { underscored: true, timestamps: false },
    retry: { match: [/SQLITE_BUSY/], max: 10 },
    hooks: {
      afterConnect: async (connection) => {
        await new Promise<void>((resolve, reject) =>
          (connection as { run: (sql: string, cb: (err: Error | null) => void) => void }).run('PRAGMA busy_timeout = 5000', (err) =>
            err ? reject(err) : resolve(),
          ),
        );
      },
    },
  });
  await sequelize.query('PRAGMA journal_mode = WAL');
  await sequelize.query('PRAGMA foreign_keys = ON');
  await sequelize.query('PRAGMA synchronous = NORMAL');
  return sequelize;
}
