import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SessionData } from 'express-session';
import type { Sequelize } from 'sequelize';
import { createLogger } from '../../../core/logger.ts';
import { openDatabase } from '../../../db/database.ts';
import { migrate } from '../../../db/migrate.ts';
import { initSessionModel } from './session.model.ts';
import { SqliteSessionStore } from './session-store.ts';

describe('session store lifetimes', () => {
  let dir: string;
  let db: Sequelize;
  let store: SqliteSessionStore;
  const idleMs = 60_000;
  const absoluteMs = 10 * 60_000;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-sessions-'));
    const logger = createLogger({ level: 'error', console: false, sinks: [] });
    db = await openDatabase(path.join(dir, 'db.sqlite'), logger);
    await migrate(db, logger);
    store = new SqliteSessionStore(initSessionModel(db), idleMs, absoluteMs);
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const set = (sid: string, data: Partial<SessionData>) =>
    new Promise<void>((resolve, reject) =>
      store.set(sid, { cookie: { originalMaxAge: idleMs, expires: new Date(Date.now() + idleMs) }, ...data } as SessionData, (err) =>
        err ? reject(err) : resolve(),
      ),
    );

  it('keeps a session within both lifetimes', async () => {
    await set('fresh', { signedInAt: Date.now() });
    expect(await store.isAlive('fresh')).to.not.equal(null);
  });

  it('ends a session the absolute lifetime after sign-in, however active it is', async () => {
    await set('old', { signedInAt: Date.now() - absoluteMs - 1 });
    expect(await store.isAlive('old')).to.equal(null);
    const got = await new Promise((resolve) => store.get('old', (_err, s) => resolve(s)));
    expect(got).to.equal(null);
  });

  it('ends a session idle past its expiry', async () => {
    await set('idle', { signedInAt: Date.now(), cookie: { originalMaxAge: idleMs, expires: new Date(Date.now() - 1) } as SessionData['cookie'] });
    expect(await store.isAlive('idle')).to.equal(null);
  });
});
