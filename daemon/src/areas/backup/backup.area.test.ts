import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import ts from 'typescript';
import type { BackupPartName } from '../../../../shared/src/api/backup/backup.ts';
import { readBackup } from '../../../../shared/src/backup/backup-file.ts';
import { systemClock } from '../../core/clock.ts';
import { createLogger } from '../../core/logger.ts';
import type { Principal } from '../../core/principal.ts';
import { openDatabase } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import type { Area } from '../area.ts';
import { storageBackupPart } from '../storage/storage.backup.ts';
import type { BackupPart } from '../backup-part.ts';
import { createBackupArea } from './backup.area.ts';
import { collectParts } from './collect-parts.ts';

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

/** A part that keeps one number and writes down when its rows and its host effects were restored. */
function recordingPart(name: BackupPartName, after: BackupPartName[], log: string[]): BackupPart<number> {
  return {
    name,
    after,
    export: async () => 1,
    inspect: async (raw) => ({ data: raw as number, counts: {} }),
    restore: async () => void log.push(`rows ${name}`),
    apply: async () => void log.push(`host ${name}`),
  };
}

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

  const backupOf = (areas: Area[]) => createBackupArea({ db, clock: systemClock, logger, sessionStore: { endAll: async () => 0 }, areas }).backup;
  const partsWritten = async (areas: Area[]) => {
    const { file } = await backupOf(areas).create(password, admin);
    return Object.keys((await readBackup(file, password)).parts);
  };

  it("writes the parts the areas' contracts carry, one or several, and none for an area without one", async () => {
    expect(await partsWritten([{ name: 'storage' }, { name: 'jobs' }])).to.deep.equal([]);
    expect(await partsWritten([{ name: 'storage', backupPart: storageBackupPart({ db }) }, { name: 'jobs' }])).to.deep.equal(['storage']);
    const log: string[] = [];
    const identity: Area = { name: 'identity', backupPart: [recordingPart('users', [], log), recordingPart('groups', ['users'], log)] };
    expect(await partsWritten([{ name: 'storage', backupPart: storageBackupPart({ db }) }, identity])).to.deep.equal(['users', 'groups', 'storage']);
  });

  it('restores rows, then host effects, users before groups before permissions before shares, whatever order the areas and the request name them in', async () => {
    const log: string[] = [];
    // Built in the reverse order of their dependencies, and asked for in yet another.
    const backup = backupOf([
      { name: 'shares', backupPart: recordingPart('shares', ['users', 'groups', 'permissions'], log) },
      {
        name: 'identity',
        backupPart: [recordingPart('permissions', ['users', 'groups'], log), recordingPart('groups', ['users'], log), recordingPart('users', [], log)],
      },
    ]);
    const { file } = await backup.create(password, admin);
    const summary = await backup.inspect(admin, password, file.toString('base64'));
    expect(summary.parts.map((p) => p.name)).to.deep.equal(['users', 'groups', 'permissions', 'shares']);
    const result = await backup.restore(admin, summary.backupId, ['shares', 'permissions', 'users', 'groups'], {
      localAddress: null,
      scheme: 'http',
      port: 7484,
    });
    expect(result.restored).to.deep.equal(['users', 'groups', 'permissions', 'shares']);
    expect(log).to.deep.equal(['rows users', 'rows groups', 'rows permissions', 'rows shares', 'host users', 'host groups', 'host permissions', 'host shares']);
  });

  it('refuses, when the daemon is built, a part restored before one it points at, and two parts of one name', () => {
    const log: string[] = [];
    expect(() => collectParts([{ name: 'identity', backupPart: recordingPart('users', ['shares'], log) }])).to.throw(/users points at shares/);
    expect(() =>
      collectParts([
        { name: 'a', backupPart: recordingPart('ssh', [], log) },
        { name: 'b', backupPart: recordingPart('ssh', [], log) },
      ]),
    ).to.throw(/two areas carry the backup part ssh/);
  });

  it("imports no other area's code: the parts reach it through the area contract only", () => {
    const folder = import.meta.dirname;
    const areas = path.dirname(folder);
    // The backup's password follows the rules of users' passwords: a rule, not a part.
    const allowed = new Set(['area.ts', 'backup-part.ts', 'identity/users/password-policy.ts']);
    const reached: string[] = [];
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      for (const { fileName } of ts.preProcessFile(readFileSync(path.join(folder, file), 'utf8'), true, true).importedFiles) {
        const target = path.resolve(folder, fileName);
        if (fileName.startsWith('.') && target.startsWith(areas + path.sep) && !target.startsWith(folder + path.sep))
          reached.push(path.relative(areas, target));
      }
    }
    expect(reached.filter((target) => !allowed.has(target))).to.deep.equal([]);
    expect(reached).to.include('area.ts');
  });
});
