import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { QueryTypes, type QueryInterface, type Sequelize, type Transaction } from 'sequelize';
import type { UmzugStorage } from 'umzug';
import type { Logger } from '../core/logger.ts';

/** What a migration's `up` gets: everything it does must pass `transaction`. */
export interface MigrationContext {
  qi: QueryInterface;
  sequelize: Sequelize;
  transaction: Transaction;
}

/** A file under migrations/ named `<yyyyMMddHHmmss>-<slug>.ts` exports `up`. */
export interface Migration {
  up(ctx: MigrationContext): Promise<void>;
}

export class MigrationError extends Error {}

const migrationsDir = path.join(import.meta.dirname, 'migrations');
const migrationFile = /^\d{14}-[a-z0-9-]+\.ts$/;

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
export async function migrate(sequelize: Sequelize, logger: Logger, dir = migrationsDir): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => migrationFile.test(f))
    .sort();
  await sequelize.query('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = await sequelize.query<{ name: string }>('SELECT name FROM schema_migrations', { type: QueryTypes.SELECT });
  const done = new Set(applied.map((r) => r.name));
  // Umzug and its command-line dependencies take a quarter second to load: only when there is work.
  if (files.every((f) => done.has(f.replace(/\.ts$/, '')))) return [];
  const { Umzug } = await import('umzug');
  try {
    return await sequelize.transaction(async (transaction) => {
      const umzug = new Umzug<MigrationContext>({
        migrations: files.map((file) => ({
          name: file.replace(/\.ts$/, ''),
          up: async ({ context }) => {
            const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as Migration;
            await mod.up(context);
          },
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
