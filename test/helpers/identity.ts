import { generate } from 'otplib';
import type { UserSummary } from '../../shared/src/api/identity/users.ts';
import type { TestClient, TestDaemon } from './daemon.ts';

export const userPassword = 'plum-orchard-42';

let counter = 0;
/** A fresh user name per call, so tests in one daemon never collide. */
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${counter}${Math.random().toString(36).slice(2, 6)}`;
}

/** Creates a user through the users API as the given administrator. */
export async function createUser(
  admin: TestClient,
  options: Partial<{ username: string; admin: boolean; smb: boolean; sftp: boolean; groupIds: number[] }> = {},
): Promise<UserSummary> {
  return admin.api.users.create({ body: { username: options.username ?? uniqueName(), password: userPassword, ...options } });
}

/** A TOTP code for the time step `offsetSteps` steps from now (codes of the neighbouring steps are accepted). */
export function totpCode(secret: string, offsetSteps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
}

/** Signs in a user with TOTP on: password step, then a code. */
export async function signInWithTotp(box: TestDaemon, username: string, secret: string, offsetSteps: number, password = userPassword): Promise<TestClient> {
  const c = box.client();
  const first = await c.api.auth.login({ body: { username, password } });
  if (first.state !== 'totpRequired') throw new Error('expected the TOTP step');
  const info = await c.api.auth.loginTotp({ body: { code: await totpCode(secret, offsetSteps) } });
  c.user = info;
  c.csrfToken = info.csrfToken;
  return c;
}
