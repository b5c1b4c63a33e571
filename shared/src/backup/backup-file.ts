import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { packContent, unpackContent, type BackupContent } from './content.ts';
import { BackupFormatError } from './format-error.ts';
import {
  assertKdf,
  defaultKdf,
  headerBytes,
  ivBytes,
  kdfMemory,
  readHeader,
  saltBytes,
  setVerifier,
  tagBytes,
  verifiedPart,
  writeHeaderStart,
  type KdfParams,
} from './header.ts';

export type { BackupContent, Manifest, PartEntry } from './content.ts';
export { BackupFormatError, type BackupFormatCode } from './format-error.ts';
export { defaultKdf, kdfLimits, type KdfParams } from './header.ts';
export { maxContentBytes } from './content.ts';

/** Largest backup file a reader accepts: a configuration is far smaller, and the file is read into memory. */
export const maxBackupBytes = 32 * 1024 * 1024;

/**
 * scrypt gives 64 bytes: the first half is the AES-256-GCM key, the second the key of the
 * header's verifier, which tells a wrong password apart from a changed file.
 */
async function deriveKeys(password: string, salt: Buffer, kdf: KdfParams): Promise<{ key: Buffer; check: Buffer }> {
  const out = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, 64, { N: 2 ** kdf.log2N, r: kdf.r, p: kdf.p, maxmem: kdfMemory(kdf) + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
  return { key: out.subarray(0, 32), check: out.subarray(32) };
}

function verifierOf(check: Buffer, header: Buffer): Buffer {
  return createHmac('sha256', check).update(verifiedPart(header)).digest();
}

/** Encrypts a backup's content with the password into one file (docs/backup-format.md). */
export async function writeBackup(content: BackupContent, password: string, kdf: KdfParams = defaultKdf): Promise<Buffer> {
  return sealContent(packContent(content), password, kdf);
}

/** Encrypts already packed (compressed) content; apart from writeBackup, tests use it to seal hostile content. */
export async function sealContent(packed: Buffer, password: string, kdf: KdfParams = defaultKdf): Promise<Buffer> {
  assertKdf(kdf);
  const salt = randomBytes(saltBytes);
  const iv = randomBytes(ivBytes);
  const header = writeHeaderStart(kdf, salt, iv);
  const { key, check } = await deriveKeys(password, salt, kdf);
  setVerifier(header, verifierOf(check, header));
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: tagBytes });
  cipher.setAAD(header);
  const body = Buffer.concat([cipher.update(packed), cipher.final()]);
  return Buffer.concat([header, body, cipher.getAuthTag()]);
}

/**
 * Reads a backup file: header limits first, then the password (verifier), then the cipher's tag
 * over header and content, then the content's manifest and every part. Throws BackupFormatError.
 */
export async function readBackup(file: Uint8Array, password: string): Promise<BackupContent> {
  if (file.byteLength > maxBackupBytes) throw new BackupFormatError('backup.file.too_large', { maxBytes: maxBackupBytes });
  const header = readHeader(file);
  const { key, check } = await deriveKeys(password, header.salt, header.kdf);
  if (!timingSafeEqual(verifierOf(check, header.bytes), header.verifier)) throw new BackupFormatError('backup.password.wrong');
  const buf = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const decipher = createDecipheriv('aes-256-gcm', key, header.iv, { authTagLength: tagBytes });
  decipher.setAAD(header.bytes);
  decipher.setAuthTag(buf.subarray(buf.length - tagBytes));
  let compressed: Buffer;
  try {
    compressed = Buffer.concat([decipher.update(buf.subarray(headerBytes, buf.length - tagBytes)), decipher.final()]);
  } catch {
    throw new BackupFormatError('backup.file.damaged');
  }
  return unpackContent(compressed);
}
