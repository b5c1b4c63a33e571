import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { secretFile } from '../../../core/secret-file.ts';

/** Version prefix of a sealed secret; a plain otplib secret is base32 (A-Z, 2-7), so it never starts like this. */
const prefix = 'v1:';
const ivBytes = 12;
const tagBytes = 16;

/**
 * TOTP secrets at rest: AES-256-GCM under a key kept outside the database, in a 0600 file of the
 * data directory, so a copy of the SQLite file alone (a backup, a disk image of it) reveals no secret.
 * Stored as `v1:` + base64url(iv | tag | ciphertext); the user id is the associated data, so a sealed
 * secret copied onto another user's row does not open. If the key file is lost, sealed secrets cannot be
 * opened any more: their users sign in with a recovery code (which turns TOTP off) and enrol again.
 */
export class TotpCipher {
  private constructor(private readonly key: Buffer) {}

  /** The key from `file`, made (32 random bytes, mode 0600) on first use. */
  static fromKeyFile(file: string): TotpCipher {
    const key = Buffer.from(secretFile(file, 32), 'base64url');
    if (key.length !== 32) throw new Error(`the TOTP key file ${file} does not hold a 32-byte key`);
    return new TotpCipher(key);
  }

  static isSealed(stored: string): boolean {
    return stored.startsWith(prefix);
  }

  seal(userId: number, secret: string): string {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: tagBytes });
    cipher.setAAD(aad(userId));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return prefix + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
  }

  /** The secret, or null when the value is not a sealed secret of this user under this key (tampered, other key, plain). */
  open(userId: number, stored: string): string | null {
    if (!TotpCipher.isSealed(stored)) return null;
    const raw = Buffer.from(stored.slice(prefix.length), 'base64url');
    if (raw.length <= ivBytes + tagBytes) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, ivBytes), { authTagLength: tagBytes });
      decipher.setAAD(aad(userId));
      decipher.setAuthTag(raw.subarray(ivBytes, ivBytes + tagBytes));
      return Buffer.concat([decipher.update(raw.subarray(ivBytes + tagBytes)), decipher.final()]).toString('utf8');
    } catch {
      // GCM refuses a changed iv, tag, ciphertext or user id: the row was tampered with or sealed under another key.
      return null;
    }
  }
}

function aad(userId: number): Buffer {
  return Buffer.from(`cellar-totp:${userId}`, 'utf8');
}
