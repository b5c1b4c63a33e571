import bcrypt from 'bcryptjs';

/** bcrypt cost of new hashes; a stored hash of a lower cost is rehashed at the next sign-in. */
export const bcryptCost = 12;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, bcryptCost);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

export function needsRehash(hash: string): boolean {
  return bcrypt.getRounds(hash) < bcryptCost;
}

/**
 * A cost-12 hash compared against when the user is unknown, so timing gives nothing away.
 * Precomputed: hashing it at start-up would cost a quarter second of every cold start.
 */
export const dummyHash = '$2b$12$e.35nfbDRewGfDiTBWOFkeiZlKA1BlMM5qTMplIyX2TP.tR/5Jq6C';
