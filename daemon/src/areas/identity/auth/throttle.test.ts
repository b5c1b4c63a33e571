import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QueryTypes, type Sequelize } from 'sequelize';
import { createLogger } from '../../../core/logger.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import { openDatabase } from '../../../db/database.ts';
import { migrate } from '../../../db/migrate.ts';
import { LoginThrottle, type SignInClient } from './throttle.ts';

describe('sign-in throttle on SQLite', () => {
  let dir: string;
  let db: Sequelize;
  let now = 1_800_000_000_000;
  const sqlTexts: string[] = [];

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-throttle-'));
    db = await openDatabase(path.join(dir, 'db.sqlite'), createLogger({ level: 'error', console: false, sinks: [] }));
    await migrate(db, createLogger({ level: 'error', console: false, sinks: [] }));
    // Records the SQL text the throttle sends; the real query still runs.
    const query = db.query.bind(db) as (sql: string, options?: object) => Promise<unknown>;
    db.query = ((sql: string, options?: object) => {
      sqlTexts.push(sql);
      return query(sql, options);
    }) as typeof db.query;
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function retryAfter(throttle: LoginThrottle, client: SignInClient): Promise<number | null> {
    try {
      await throttle.check(client);
      return null;
    } catch (err) {
      expect(err).to.be.instanceOf(ProblemError);
      return (err as ProblemError).params?.retryAfter as number;
    }
  }

  it('keeps hostile names as bound values, never in the SQL text', async () => {
    const throttle = new LoginThrottle(db, undefined, () => now);
    const names = ['ad\u0000min', "x'); DROP TABLE login_throttle; --", 'ä$1?:name'];
    for (const username of names) {
      const client = { username, address: '127.0.0.9', device: null };
      for (let i = 0; i < 5; i++) await throttle.failed(client);
      expect(await retryAfter(throttle, client)).to.equal(30);
    }
    const keys = await db.query<{ key: string }>('SELECT "key" FROM login_throttle WHERE "key" LIKE $1', { bind: ['user-ip:%'], type: QueryTypes.SELECT });
    expect(keys.map((k) => k.key)).to.include.members(names.map((n) => `user-ip:127.0.0.9/${n.toLowerCase()}`));
    for (const text of sqlTexts) for (const name of names) expect(text).to.not.include(name);
  });

  it('doubles the lock with each failure after one ran out, and forgets only after a quiet window', async () => {
    const throttle = new LoginThrottle(db, undefined, () => now);
    const client = { username: 'doubling', address: '127.0.0.10', device: null };
    for (let i = 0; i < 5; i++) await throttle.failed(client);
    const locks = [await retryAfter(throttle, client)];
    for (let i = 0; i < 6; i++) {
      now += locks.at(-1)! * 1000 + 1;
      expect(await retryAfter(throttle, client)).to.equal(null);
      await throttle.failed(client);
      locks.push(await retryAfter(throttle, client));
    }
    expect(locks).to.deep.equal([30, 60, 120, 240, 480, 900, 900]);
    now += 900_000 + 15 * 60_000 + 1;
    await throttle.failed(client);
    expect(await retryAfter(throttle, client)).to.equal(null);
  });
});
