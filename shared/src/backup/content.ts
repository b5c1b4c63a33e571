import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { BackupFormatError } from './format-error.ts';

/** Largest decompressed content a reader accepts: a decompression bomb stops here. */
export const maxContentBytes = 64 * 1024 * 1024;
const lengthBytes = 4;
const maxManifestBytes = 1024 * 1024;

export interface PartEntry {
  name: string;
  bytes: number;
  /** Hex SHA-256 of the part's bytes. */
  sha256: string;
}

/** What the backup says of itself; written first, so a reader knows every part before reading one. */
export interface Manifest {
  createdAt: string;
  box: { name: string; version: string };
  parts: PartEntry[];
}

export interface BackupContent {
  createdAt: string;
  box: { name: string; version: string };
  /** Each part's JSON value by name. */
  parts: Record<string, unknown>;
}

/** Manifest length (u32), manifest JSON, then each part's JSON in manifest order; all gzip-compressed. */
export function packContent(content: BackupContent): Buffer {
  const bodies = Object.entries(content.parts).map(([name, value]) => ({ name, bytes: Buffer.from(JSON.stringify(value), 'utf8') }));
  const manifest: Manifest = {
    createdAt: content.createdAt,
    box: content.box,
    parts: bodies.map((b) => ({ name: b.name, bytes: b.bytes.length, sha256: sha256(b.bytes) })),
  };
  const manifestBytes = Buffer.from(JSON.stringify(manifest), 'utf8');
  const length = Buffer.alloc(lengthBytes);
  length.writeUInt32BE(manifestBytes.length);
  return gzipSync(Buffer.concat([length, manifestBytes, ...bodies.map((b) => b.bytes)]));
}

/** Decompresses (at most maxContentBytes) and checks the manifest and every part against it. */
export function unpackContent(compressed: Buffer): BackupContent {
  let raw: Buffer;
  try {
    raw = gunzipSync(compressed, { maxOutputLength: maxContentBytes });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new BackupFormatError('backup.file.too_large', { maxBytes: maxContentBytes });
    throw new BackupFormatError('backup.file.damaged');
  }
  if (raw.length < lengthBytes) throw new BackupFormatError('backup.file.damaged');
  const manifestLength = raw.readUInt32BE(0);
  if (manifestLength > maxManifestBytes || lengthBytes + manifestLength > raw.length) throw new BackupFormatError('backup.file.damaged');
  const manifest = parseManifest(raw.subarray(lengthBytes, lengthBytes + manifestLength));
  const parts: Record<string, unknown> = {};
  let at = lengthBytes + manifestLength;
  for (const entry of manifest.parts) {
    const bytes = raw.subarray(at, at + entry.bytes);
    if (bytes.length !== entry.bytes || sha256(bytes) !== entry.sha256) throw new BackupFormatError('backup.file.damaged', { part: entry.name });
    parts[entry.name] = parseJson(bytes);
    at += entry.bytes;
  }
  if (at !== raw.length) throw new BackupFormatError('backup.file.damaged');
  return { createdAt: manifest.createdAt, box: manifest.box, parts };
}

function parseManifest(bytes: Buffer): Manifest {
  const value = parseJson(bytes) as Partial<Manifest> | null;
  const names = new Set<string>();
  const ok =
    typeof value === 'object' &&
    value !== null &&
    typeof value.createdAt === 'string' &&
    typeof value.box?.name === 'string' &&
    typeof value.box.version === 'string' &&
    Array.isArray(value.parts) &&
    value.parts.every((p: Partial<PartEntry>) => {
      const good =
        typeof p === 'object' &&
        p !== null &&
        typeof p.name === 'string' &&
        /^[a-z][a-zA-Z0-9.-]{0,63}$/.test(p.name) &&
        !names.has(p.name) &&
        Number.isSafeInteger(p.bytes) &&
        (p.bytes ?? -1) >= 0 &&
        typeof p.sha256 === 'string';
      if (good) names.add(p.name as string);
      return good;
    });
  if (!ok) throw new BackupFormatError('backup.file.damaged');
  return value as Manifest;
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BackupFormatError('backup.file.damaged');
  }
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
