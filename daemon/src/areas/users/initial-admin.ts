import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../core/logger.ts';
import { hashPassword } from './passwords.ts';
import type { UserRow } from './user.model.ts';

export const initialAdminFile = 'initial-admin-password';

/**
 * On the first start in development mode the daemon creates `admin`: with BOX_ADMIN_PASSWORD,
 * else with a random password printed once and kept (mode 0600) until it is changed.
 */
export async function ensureInitialAdmin(users: typeof UserRow, dataDir: string, configured: string | null, logger: Logger): Promise<void> {
  if ((await users.count()) > 0) return;
  const password = configured ?? randomBytes(12).toString('base64url');
  const now = new Date().toISOString();
  await users.create({ username: 'admin', displayName: 'Administrator', passwordHash: await hashPassword(password), admin: true, active: true, language: 'en', createdAt: now, updatedAt: now });
  if (configured) {
    logger.info('created the administrator admin with the password of BOX_ADMIN_PASSWORD', { component: 'users' });
    return;
  }
  const file = path.join(dataDir, initialAdminFile);
  if (!existsSync(file)) writeFileSync(file, `${password}\n`, { mode: 0o600 });
  // Printed once on the console, never to the log store: the log must not keep a secret.
  process.stdout.write(`\nCellar: created the administrator "admin" with the password ${password}\n(also in ${file} until it is changed)\n\n`);
}
