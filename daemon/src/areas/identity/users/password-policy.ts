import { ProblemError } from '../../../core/problem-error.ts';

export const minPasswordLength = 10;

/**
 * The most common passwords of at least 10 characters in public breach lists (lower case);
 * shorter ones already fail the length rule.
 */
const commonPasswords = new Set([
  '1234567890',
  '0987654321',
  '1q2w3e4r5t',
  'qwertyuiop',
  '1qaz2wsx3edc',
  'password1',
  'password12',
  'password123',
  'password1234',
  'passw0rd123',
  'iloveyou12',
  'qwerty1234',
  'qwerty12345',
  'qwerty123456',
  '123456789a',
  'a123456789',
  '1234567891',
  '12345678910',
  '1111111111',
  '0000000000',
  '123123123123',
  'abcdefghij',
  'abc1234567',
  'abcd123456',
  'letmein123',
  'welcome123',
  'welcome1234',
  'admin12345',
  'administrator',
  'adminadmin',
  'football123',
  'baseball123',
  'sunshine123',
  'princess123',
  'trustno1234',
  'dragon1234',
  'monkey1234',
  'master1234',
  'superman123',
  'changeme123',
  'q1w2e3r4t5',
  'zaq12wsxcde',
  'asdfghjkl1',
  'asdfghjkl;',
  'zxcvbnm123',
  'michael123',
  'charlie123',
  'computer123',
  'internet123',
  'starwars123',
  'whatever123',
  'passwordpassword',
  'p@ssw0rd123',
  'p@ssword123',
]);

export type WeakReason = 'too_short' | 'same_as_username' | 'common';

export function weakness(password: string, username: string): WeakReason | null {
  if ([...password].length < minPasswordLength) return 'too_short';
  const lower = password.toLowerCase();
  const name = username.toLowerCase();
  // The name itself, or the name with a few characters around it (`alice2024`).
  if (lower === name || (name.length >= 4 && lower.includes(name) && lower.length - name.length < 4)) return 'same_as_username';
  if (commonPasswords.has(lower)) return 'common';
  return null;
}

/** Throws auth.password.weak with the reason when a new password breaks a rule. */
export function assertPasswordPolicy(password: string, username: string): void {
  const reason = weakness(password, username);
  if (reason) throw new ProblemError('auth.password.weak', { reason, minLength: minPasswordLength });
}
