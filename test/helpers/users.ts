import { QueryTypes } from 'sequelize';
import { hashPassword } from '../../daemon/src/areas/identity/users/passwords.ts';
import type { TestDaemon } from './daemon.ts';

/**
 * Adds a user straight into the daemon's database, for tests that need a second user
 * without going through the users API. Answers the new user's id.
 */
export async function insertUser(box: TestDaemon, username: string, password: string, options: { admin?: boolean } = {}): Promise<number> {
  const db = box.daemon.db;
  const columns = await db.query<{ name: string }>("SELECT name FROM pragma_table_info('users')", { type: QueryTypes.SELECT });
  const now = new Date().toISOString();
  const row: Record<string, unknown> = {
    username,
    display_name: username,
    password_hash: await hashPassword(password),
    admin: options.admin ? 1 : 0,
    active: 1,
    language: 'en',
    created_at: now,
    updated_at: now,
  };
  // The system uid arrived with the identity migration; give the next free one when the column is there.
  if (columns.some((c) => c.name === 'uid')) {
    const [{ next }] = (await db.query<{ next: number }>('SELECT COALESCE(MAX(uid), 19999) + 1 AS next FROM users', { type: QueryTypes.SELECT })) as [
      { next: number },
    ];
    row.uid = next;
  }
  const names = Object.keys(row);
  await db.query(`INSERT INTO users (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`, { replacements: Object.values(row) });
  const [{ id }] = (await db.query<{ id: number }>('SELECT id FROM users WHERE username = ?', { replacements: [username], type: QueryTypes.SELECT })) as [
    { id: number },
  ];
  return id;
}
