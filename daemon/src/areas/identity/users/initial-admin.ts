import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import type { Logger } from '../../../core/logger.ts';
import { hashPassword } from './passwords.ts';
import type { UsersService } from './users.service.ts';

export const initialAdminFile = 'initial-admin-password';

/**
 * On the first start in development mode the daemon creates `admin`: with BOX_ADMIN_PASSWORD,
 * else with a random password printed once and kept (mode 0600) until it is changed.
 */
export async function ensureInitialAdmin(db: Sequelize, users: UsersService, dataDir: string, configured: string | null, logger: Logger): Promise<void> {
  if ((await users.count()) > 0) return;
  const password = configured ?? randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  await db.transaction((transaction) =>
    users.insert({ username: 'admin', displayName: 'Administrator', passwordHash, admin: true, language: 'en' }, transaction),
  );
  if (configured) {
    logger.info('created the administrator admin with the password of BOX_ADMIN_PASSWORD', { component: 'users' });
    return;
  }
  const file = path.join(dataDir, initialAdminFile);
  if (!existsSync(file)) writeFileSync(file, `${password}\n`, { mode: 0o600 });
  // Printed once on the console, never to the log store: the log must not keep a secret.
  process.stdout.write(`\nCellar: created the administrator "admin" with the password ${password}\n(also in ${file} until it is changed)\n\n`);
}

/** The first administrator's password file goes once that password is changed. */
export function forgetInitialAdminPassword(dataDir: string, username: string): void {
  if (username === 'admin') rmSync(path.join(dataDir, initialAdminFile), { force: true });
}
