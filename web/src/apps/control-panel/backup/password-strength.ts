/** How hard a backup password is to guess, as a hint while typing; the server's password rules still decide. */
export type Strength = 'weak' | 'fair' | 'strong';

/**
 * Length counts most (a passphrase of words beats a short mix); a mix of character kinds helps a
 * shorter one. Below the password rules' 10 characters it is always weak.
 */
export function passwordStrength(password: string): Strength {
  const length = [...password].length;
  if (length < 10) return 'weak';
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((kind) => kind.test(password)).length;
  const distinct = new Set(password).size;
  if (distinct < 5) return 'weak';
  if (length >= 16 || (length >= 12 && kinds >= 3)) return 'strong';
  return 'fair';
}
