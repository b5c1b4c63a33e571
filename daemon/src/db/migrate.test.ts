import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { QueryTypes, Sequelize } from 'sequelize';
import { createLogger } from '../core/logger.ts';
import { migrate, MigrationError } from './migrate.ts';
import type { Migration, MigrationSet } from './migration-types.ts';
import { migrations } from './migrations/index.ts';

const logger = createLogger({ level: 'error', console: false, sinks: [] });

function migration(dir: string, name: string, body: string): void {
  writeFileSync(path.join(dir, `${name}.ts`), `export async function up({ qi, sequelize, transaction }) {\n${body}\n}\n`);
}

/** The migration files of a folder as a set, the way migrations/index.ts lists the real ones. */
function folderSet(dir: string): MigrationSet {
  const names = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  return Object.fromEntries(names.map((f) => [f.replace(/\.ts$/, ''), () => import(path.join(dir, f)) as Promise<Migration>]));
}

describe('migrations/index.ts', () => {
  it('lists every migration file of the folder, and nothing else', () => {
    const files = readdirSync(path.join(import.meta.dirname, 'migrations'))
      .filter((f) => /^\d{14}-[a-z0-9-]+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''));
    expect(Object.keys(migrations).sort()).to.deep.equal(files.sort());
  });
});

describe('migrate', () => {
  let dir: string;
  let db: Sequelize;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-migrations-'));
    db = new Sequelize({ dialect: 'sqlite', storage: path.join(dir, 'db.sqlite'), logging: false });
  });

  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const tables = async () =>
    (await db.query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", { type: QueryTypes.SELECT })).map((r) => r.name);

  it('applies pending migrations in order, once', async () => {
    migration(dir, '20260101000000-first', "await sequelize.query('CREATE TABLE a (id INTEGER)', { transaction });");
    expect(await migrate(db, logger, folderSet(dir))).to.deep.equal(['20260101000000-first']);
    expect(await migrate(db, logger, folderSet(dir))).to.deep.equal([]);
    migration(dir, '20260102000000-second', "await sequelize.query('CREATE TABLE b (id INTEGER)', { transaction });");
    expect(await migrate(db, logger, folderSet(dir))).to.deep.equal(['20260102000000-second']);
    expect(await tables()).to.include.members(['a', 'b', 'schema_migrations']);
  });

  it('leaves the database as it was when a migration fails, and says why', async () => {
    migration(dir, '20260101000000-good', "await sequelize.query('CREATE TABLE a (id INTEGER)', { transaction });");
    migration(dir, '20260102000000-bad', "await sequelize.query('CREATE TABLE broken (', { transaction });");
    const err = await migrate(db, logger, folderSet(dir)).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(MigrationError);
    expect((err as Error).message).to.match(/left unchanged/);
    expect(await tables()).to.not.include('a');
    const applied = await db.query('SELECT name FROM schema_migrations', { type: QueryTypes.SELECT });
    expect(applied).to.deep.equal([]);
  });
});
