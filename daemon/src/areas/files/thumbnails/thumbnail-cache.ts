import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * The WebP files under `<dataDir>/thumbnails/<shareId>/<aa>/<key>-<size>.webp`; the two-letter
 * fan-out keeps folders small. Files appear only complete: written to a temporary name, then renamed.
 */
export class ThumbnailCache {
  constructor(readonly dir: string) {}

  fileOf(shareId: number, key: string, size: number): string {
    return path.join(this.dir, String(shareId), key.slice(0, 2), `${key}-${size}.webp`);
  }

  /** Calls `render` with a temporary file next to the final one; keeps it only when `render` says ok. */
  async write<T extends { ok: boolean }>(shareId: number, key: string, size: number, render: (tmp: string) => Promise<T>): Promise<T> {
    const file = this.fileOf(shareId, key, size);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = path.join(path.dirname(file), `.tmp-${randomBytes(6).toString('hex')}.webp`);
    try {
      const outcome = await render(tmp);
      if (outcome.ok) await rename(tmp, file);
      return outcome;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async remove(shareId: number, key: string, size: number): Promise<void> {
    await rm(this.fileOf(shareId, key, size), { force: true });
  }

  async removeShare(shareId: number): Promise<void> {
    await rm(path.join(this.dir, String(shareId)), { recursive: true, force: true });
  }

  /** Shares that have a folder in the cache. */
  async shareIds(): Promise<number[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    return names.filter((n) => /^\d+$/.test(n)).map(Number);
  }
}
