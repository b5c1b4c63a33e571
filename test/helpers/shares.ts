import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import type { ShareInfo } from '../../shared/src/api/shares/shares.ts';
import type { TestClient, TestDaemon } from './daemon.ts';

/** A fresh real folder under the system temp dir (outside the daemon's data dir). */
const made: string[] = [];

export function tempFolder(prefix = 'cellar-share-'): string {
  const folder = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  made.push(folder);
  return folder;
}

/** Removes every folder tempFolder made (call in after()), with the recycle bin a share of it had beside it. */
export function removeTempFolders(): void {
  for (const folder of made.splice(0)) {
    rmSync(folder, { recursive: true, force: true });
    rmSync(path.join(path.dirname(folder), '.cellar-trash', path.basename(folder)), { recursive: true, force: true });
  }
}

/** Registers a fresh temp folder as a share through the API (development mode). */
export async function makeShare(admin: TestClient, name: string): Promise<{ share: ShareInfo; folder: string }> {
  const folder = tempFolder();
  const share = await admin.api.shares.create({ body: { name, hostPath: folder } });
  return { share, folder };
}

/** Adds a group with members straight into the identity tables (tests of group grants). */
export async function insertGroup(box: TestDaemon, name: string, memberIds: number[]): Promise<number> {
  const db = box.daemon.db;
  const now = new Date().toISOString();
  const [{ gid }] = (await db.query<{ gid: number }>('SELECT COALESCE(MAX(gid), 29999) + 1 AS gid FROM groups WHERE gid >= 30000', {
    type: QueryTypes.SELECT,
  })) as [{ gid: number }];
  await db.query('INSERT INTO groups (name, gid, description, built_in, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?)', {
    replacements: [name, gid, '', now, now],
  });
  const [{ id }] = (await db.query<{ id: number }>('SELECT id FROM groups WHERE name = ?', { replacements: [name], type: QueryTypes.SELECT })) as [
    { id: number },
  ];
  for (const userId of memberIds) await db.query('INSERT INTO group_members (group_id, user_id) VALUES (?, ?)', { replacements: [id, userId] });
  return id;
}

export async function setActive(box: TestDaemon, userId: number, active: boolean): Promise<void> {
  await box.daemon.db.query('UPDATE users SET active = ? WHERE id = ?', { replacements: [active ? 1 : 0, userId] });
}
