import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { UmzugStorage } from 'umzug';
import type { Logger } from '../core/logger.ts';
import type { MigrationContext, MigrationSet } from './migration-types.ts';
import { migrations } from './migrations/index.ts';

export class MigrationError extends Error {}

/** Records applied migrations inside the same transaction as the migrations themselves. */
function transactionalStorage(sequelize: Sequelize, transaction: Transaction): UmzugStorage {
  return {
    async executed() {
      const rows = await sequelize.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name', { type: QueryTypes.SELECT, transaction });
      return rows.map((r) => r.name);
    },
    async logMigration({ name }) {
      await sequelize.query('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)', { replacements: [name, new Date().toISOString()], transaction });
    },
    async unlogMigration({ name }) {
      await sequelize.query('DELETE FROM schema_migrations WHERE name = ?', { replacements: [name], transaction });
    },
  };
}

/**
 * Applies every pending migration in one transaction: a failure stops the start with the
 * reason and leaves the database exactly as it was.
 */
export async function migrate(sequelize: Sequelize, logger: Logger, set: MigrationSet = migrations): Promise<string[]> {
  const ordered = Object.entries(set).sort(([a], [b]) => a.localeCompare(b));
  await sequelize.query('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = await sequelize.query<{ name: string }>('SELECT name FROM schema_migrations', { type: QueryTypes.SELECT });
  const done = new Set(applied.map((r) => r.name));
  // Umzug and its command-line dependencies take a quarter second to load: only when there is work.
  if (ordered.every(([name]) => done.has(name))) return [];
  const { Umzug } = await import('umzug');
  try {
    return await sequelize.transaction(async (transaction) => {
      const umzug = new Umzug<MigrationContext>({
        migrations: ordered.map(([name, load]) => ({
          name,
          up: async ({ context }) => (await load()).up(context),
        })),
        context: { qi: sequelize.getQueryInterface(), sequelize, transaction },
        storage: transactionalStorage(sequelize, transaction),
        logger: {
          info: (m) => logger.info('migration', { component: 'db', ...m }),
          warn: (m) => logger.warn('migration', m),
          error: (m) => logger.error('migration', m),
          debug: () => undefined,
        },
      });
      const applied = await umzug.up();
      return applied.map((m) => m.name);
    });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    throw new MigrationError(
      `A database migration failed; the database was left unchanged: ${(err as Error).message}${cause !== err ? ` (${(cause as Error).message})` : ''}`,
      { cause: err },
    );
  }
}
