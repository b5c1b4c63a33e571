import { BackupFormatError } from './format-error.ts';

/**
 * The fixed-size header of a backup file (see docs/backup-format.md). It is read before any work
 * is done, so every value in it is checked against hard limits first: a hostile file cannot make
 * the reader spend memory or time on key derivation.
 */
export const magic = Buffer.from('CELLARBK', 'ascii');
export const formatVersion = 1;
export const saltBytes = 16;
export const ivBytes = 12;
export const tagBytes = 16;
export const verifierBytes = 32;
/** magic, version (u16), log2 N, r, p, flags, salt, iv, verifier. */
export const headerBytes = magic.length + 2 + 4 + saltBytes + ivBytes + verifierBytes;
const verifierOffset = headerBytes - verifierBytes;

export interface KdfParams {
  /** scrypt cost N as a power of two. */
  log2N: number;
  r: number;
  p: number;
}

/** What the writer uses: 32 MiB of memory, about a tenth of a second on a small box. */
export const defaultKdf: KdfParams = { log2N: 15, r: 8, p: 1 };

/** The most a reader accepts: 256 MiB of scrypt memory and eight times the default work. */
export const kdfLimits = { minLog2N: 14, maxLog2N: 18, maxR: 16, maxP: 4, maxMemoryBytes: 256 * 1024 * 1024, maxWork: 2 ** 21 } as const;

export interface Header {
  version: number;
  kdf: KdfParams;
  salt: Buffer;
  iv: Buffer;
  verifier: Buffer;
  /** The header's bytes: the authenticated data of the cipher. */
  bytes: Buffer;
}

/** scrypt's memory: 128 * N * r bytes. */
export function kdfMemory(kdf: KdfParams): number {
  return 128 * 2 ** kdf.log2N * kdf.r;
}

export function assertKdf(kdf: KdfParams): void {
  const ok =
    Number.isInteger(kdf.log2N) &&
    Number.isInteger(kdf.r) &&
    Number.isInteger(kdf.p) &&
    kdf.log2N >= kdfLimits.minLog2N &&
    kdf.log2N <= kdfLimits.maxLog2N &&
    kdf.r >= 1 &&
    kdf.r <= kdfLimits.maxR &&
    kdf.p >= 1 &&
    kdf.p <= kdfLimits.maxP &&
    kdfMemory(kdf) <= kdfLimits.maxMemoryBytes &&
    2 ** kdf.log2N * kdf.r * kdf.p <= kdfLimits.maxWork;
  if (!ok) throw new BackupFormatError('backup.file.parameters_refused');
}

/** The header's bytes up to the verifier, which is computed over them once the key is known. */
export function writeHeaderStart(kdf: KdfParams, salt: Buffer, iv: Buffer): Buffer {
  const bytes = Buffer.alloc(headerBytes);
  magic.copy(bytes, 0);
  bytes.writeUInt16BE(formatVersion, magic.length);
  bytes.writeUInt8(kdf.log2N, magic.length + 2);
  bytes.writeUInt8(kdf.r, magic.length + 3);
  bytes.writeUInt8(kdf.p, magic.length + 4);
  bytes.writeUInt8(0, magic.length + 5);
  salt.copy(bytes, magic.length + 6);
  iv.copy(bytes, magic.length + 6 + saltBytes);
  return bytes;
}

export function setVerifier(bytes: Buffer, verifier: Buffer): void {
  verifier.copy(bytes, verifierOffset);
}

/** The part of the header the verifier covers. */
export function verifiedPart(bytes: Buffer): Buffer {
  return bytes.subarray(0, verifierOffset);
}

/** Reads and checks the header: magic, version, limits. Throws before any costly work. */
export function readHeader(file: Uint8Array): Header {
  const buf = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (buf.length < magic.length || !buf.subarray(0, magic.length).equals(magic)) throw new BackupFormatError('backup.file.not_backup');
  if (buf.length < magic.length + 2) throw new BackupFormatError('backup.file.damaged');
  const version = buf.readUInt16BE(magic.length);
  if (version !== formatVersion) throw new BackupFormatError('backup.file.version_unsupported', { version });
  if (buf.length < headerBytes + tagBytes) throw new BackupFormatError('backup.file.damaged');
  const kdf = { log2N: buf.readUInt8(magic.length + 2), r: buf.readUInt8(magic.length + 3), p: buf.readUInt8(magic.length + 4) };
  if (buf.readUInt8(magic.length + 5) !== 0) throw new BackupFormatError('backup.file.damaged');
  assertKdf(kdf);
  const saltAt = magic.length + 6;
  return {
    version,
    kdf,
    salt: buf.subarray(saltAt, saltAt + saltBytes),
    iv: buf.subarray(saltAt + saltBytes, saltAt + saltBytes + ivBytes),
    verifier: buf.subarray(verifierOffset, headerBytes),
    bytes: buf.subarray(0, headerBytes),
  };
}
