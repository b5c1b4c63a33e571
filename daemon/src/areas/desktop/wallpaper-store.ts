import { createHash, randomBytes } from 'node:crypto';
import { constants, type BigIntStats } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** Temporary files of uploads in progress; anything by this prefix is never a stored wallpaper. */
export const wallpaperTempPrefix = '.upload-';

export interface StoredWallpaper {
  handle: FileHandle;
  size: number;
  version: string;
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/** A new file under the same name gets a new inode or time, so the version (and cached URLs) change with it. */
function versionOf(s: BigIntStats): string {
  return createHash('sha256').update(`${s.ino}:${s.size}:${s.mtimeNs}`).digest('hex').slice(0, 16);
}

/**
 * Each user's wallpaper as `<dir>/<userId>.webp`. A new one is written to a temporary file
 * beside it, synced and renamed over the old one: readers see the old image or the new one,
 * never a half-written file, and a failed write leaves nothing behind.
 */
export class WallpaperStore {
  constructor(private readonly dir: string) {}

  private file(userId: number): string {
    // The id is an integer from the session, never text from the request; checked all the same.
    if (!Number.isSafeInteger(userId) || userId < 1) throw new Error(`not a user id: ${userId}`);
    return path.join(this.dir, `${userId}.webp`);
  }

  /** The version of the user's image, null without one. */
  async version(userId: number): Promise<string | null> {
    try {
      return versionOf(await stat(this.file(userId), { bigint: true }));
    } catch (err) {
      if (errno(err) === 'ENOENT') return null;
      throw err;
    }
  }

  /** Opens the user's image for reading (the caller closes the handle); null without one. */
  async open(userId: number): Promise<StoredWallpaper | null> {
    let handle: FileHandle;
    try {
      handle = await open(this.file(userId), constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (err) {
      if (errno(err) === 'ENOENT') return null;
      throw err;
    }
    try {
      const s = await handle.stat({ bigint: true });
      return { handle, size: Number(s.size), version: versionOf(s) };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /** Replaces the user's image with `webp` and answers its new version. */
  async save(userId: number, webp: Uint8Array): Promise<string> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const target = this.file(userId);
    const temp = path.join(this.dir, `${wallpaperTempPrefix}${randomBytes(12).toString('hex')}`);
    // O_EXCL and O_NOFOLLOW: the temporary name is ours alone and never a planted link.
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      await handle.writeFile(webp);
      // On disk before it takes the name: a power cut must not leave a torn image under it.
      await handle.sync();
      await handle.close();
      await rename(temp, target);
      await this.syncDir();
    } catch (err) {
      await handle.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      throw err;
    }
    const version = await this.version(userId);
    if (version === null) throw new Error('the wallpaper vanished right after it was stored');
    return version;
  }

  /** Removes the user's image; true when there was one. */
  async remove(userId: number): Promise<boolean> {
    try {
      await unlink(this.file(userId));
      return true;
    } catch (err) {
      if (errno(err) === 'ENOENT') return false;
      throw err;
    }
  }

  /** Temporary files left by a crash mid-upload; none is ever in use across a restart. */
  async sweep(): Promise<void> {
    const names = await readdir(this.dir).catch((err: unknown) => (errno(err) === 'ENOENT' ? [] : Promise.reject(err)));
    await Promise.all(names.filter((n) => n.startsWith(wallpaperTempPrefix)).map((n) => unlink(path.join(this.dir, n)).catch(() => undefined)));
  }

  private async syncDir(): Promise<void> {
    const dir = await open(this.dir, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
