import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { readBackup } from '../../../../shared/src/backup/backup-file.ts';
import { systemClock } from '../../core/clock.ts';
import { createLogger } from '../../core/logger.ts';
import type { Principal } from '../../core/principal.ts';
import { openDatabase } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import type { Area } from '../area.ts';
import { storageBackupPart } from '../storage/storage.backup.ts';
import { createBackupArea } from './backup.area.ts';

const password = 'a long backup password, 2026';
const admin: Principal = {
  id: 1,
  username: 'admin',
  displayName: 'Admin',
  language: 'en',
  totpEnabled: false,
  admin: true,
  rights: new Set(),
  sessionId: 's',
};

describe('backup area: the parts come from the areas', () => {
  let dir: string;
  let db: Sequelize;
  const logger = createLogger({ level: 'error', console: false, sinks: [] });

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-backup-area-'));
    db = await openDatabase(path.join(dir, 'cellar.sqlite'), logger);
    await migrate(db, logger);
  });

  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const partsWritten = async (areas: Area[]) => {
    const { backup } = createBackupArea({
      db,
      clock: systemClock,
      logger,
      config: { mode: 'development', dataDir: dir },
      identity: { rightHolders: async () => [] },
      fileServicesChanged: () => undefined,
      sessionStore: { endAll: async () => 0 },
      options: {},
      areas,
    });
    const { file } = await backup.create(password, admin);
    return Object.keys((await readBackup(file, password)).parts);
  };

  it("writes the part an area's contract carries, and none for an area without one", async () => {
    const without = await partsWritten([{ name: 'storage' }]);
    expect(without).to.not.include('storage');
    const carried = await partsWritten([{ name: 'storage', backupPart: storageBackupPart({ db }) }, { name: 'jobs' }]);
    expect(carried).to.include('storage');
    // The backup's own parts (identity, shares, ssh) stay beside the areas'.
    expect(carried.filter((name) => name !== 'storage').sort()).to.deep.equal([...without].sort());
  });
});
