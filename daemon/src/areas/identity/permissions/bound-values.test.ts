import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { createLogger } from '../../../core/logger.ts';
import { openDatabase } from '../../../db/database.ts';
import { migrate } from '../../../db/migrate.ts';
import { groupMembership } from '../../shares/group-membership.ts';
import { initGroupModels } from '../users/group.model.ts';
import { initUserModel } from '../users/user.model.ts';
import { initGrantModels } from './grant.model.ts';
import { Rights } from './rights.ts';

/** A quote ends an SQL string and a NUL ends SQLite's statement text: both must arrive as bound values. */
const hostile = "it's\u0000here";

describe('hand-written SQL binds its values (rights, group membership)', () => {
  let dir: string;
  let db: Sequelize;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-bound-'));
    const logger = createLogger({ level: 'error', console: false, sinks: [] });
    db = await openDatabase(path.join(dir, 'db.sqlite'), logger);
    await migrate(db, logger);
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // With replacements, Sequelize wrote the value into the SQL text and SQLite failed: unrecognized token.
  it('finds the holders of a right whose name holds a quote and a NUL, and only them', async () => {
    const users = initUserModel(db);
    const grants = initGrantModels(db);
    const rights = new Rights({ db, users, groups: initGroupModels(db), grants });
    const at = new Date(0).toISOString();
    const alice = await users.create({ username: 'alice', uid: 20001, passwordHash: 'x', createdAt: at, updatedAt: at });
    await users.create({ username: 'bob', uid: 20002, passwordHash: 'x', createdAt: at, updatedAt: at });
    await grants.userGrants.create({ userId: alice.id, right: hostile });
    expect(await rights.holders(hostile)).to.deep.equal(['alice']);
    expect(await rights.holders("it's")).to.deep.equal([]);
    expect(await rights.activeAdminIds()).to.deep.equal([]);
  });

  it('reads group membership with bound ids', async () => {
    const membership = groupMembership(db);
    const builtIn = await membership.groupIdsOf(1);
    expect(builtIn.length).to.be.greaterThan(0);
    expect(await membership.groupExists(builtIn[0] as number)).to.equal(true);
    expect(await membership.groupExists(987654)).to.equal(false);
  });
});
