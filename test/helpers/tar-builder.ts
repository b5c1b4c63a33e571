import { gzipSync } from 'node:zlib';

/**
 * Writes tar archives byte by byte (ustar headers), so tests can make the hostile entries no
 * well-behaved tar tool would write: `..`, absolute names, links out, devices, set-id bits.
 */
export interface TarEntry {
  name: string;
  type?: 'file' | 'dir' | 'symlink' | 'hardlink' | 'char' | 'fifo';
  body?: string | Buffer;
  /** Declared size when it differs from the body (a header that claims more than it holds). */
  size?: number;
  mode?: number;
  linkname?: string;
}

const typeFlags = { file: '0', hardlink: '1', symlink: '2', char: '3', dir: '5', fifo: '6' } as const;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

export function tarHeader(e: TarEntry, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(e.name, 0, 100, 'utf8');
  h.write(octal(e.mode ?? (e.type === 'dir' ? 0o755 : 0o644), 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  // Sizes past 8 GiB need base-256; the tests stay below.
  h.write(octal(size, 12), 124);
  h.write(octal(1_700_000_000, 12), 136);
  h.write('        ', 148);
  h.write(typeFlags[e.type ?? 'file'], 156);
  h.write(e.linkname ?? '', 157, 100, 'utf8');
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(octal(sum, 7) + ' ', 148);
  return h;
}

/** The raw tar of the entries, with the two closing zero blocks. */
export function tarOf(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    parts.push(tarHeader(e, e.size ?? body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

export function tgzOf(entries: TarEntry[]): Buffer {
  return gzipSync(tarOf(entries));
}
