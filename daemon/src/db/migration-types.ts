import type { QueryInterface, Sequelize, Transaction } from 'sequelize';

// The shapes a migration file and the migration list share with the runner (migrate.ts), kept
// below all three so that a migration need not import the runner that loads it.

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

/** Migrations by name (the file name without `.ts`), each loaded only when it has to run. */
export type MigrationSet = Readonly<Record<string, () => Promise<Migration>>>;
