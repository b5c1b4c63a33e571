import type { Readable } from 'node:stream';
import { customWallpaper, defaultAppearance, maxWallpaperUploadBytes, type Appearance } from '../../../../shared/src/api/desktop/desktop.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { prepareWallpaper } from './wallpaper-image.ts';
import type { StoredWallpaper, WallpaperStore } from './wallpaper-store.ts';

export interface DesktopWallpaperDeps {
  store: WallpaperStore;
  /** The desktop service's appearance: every change goes through its one saving path. */
  appearance: {
    get(userId: number): Promise<Appearance>;
    set(userId: number, appearance: Appearance): Promise<Appearance>;
  };
  logger: Logger;
}

/** Reads a whole raw body of at most `limit` bytes; a declared or actual larger one is refused before more is read. */
export async function readBody(body: Readable, declaredLength: number | null, limit: number): Promise<Buffer> {
  if (declaredLength !== null && declaredLength > limit) throw new ProblemError('request.body.too_large', { limit });
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > limit) throw new ProblemError('request.body.too_large', { limit });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

/** The caller's own uploaded wallpaper: stored per user, shown when the appearance says `custom`. */
export class DesktopWallpaper {
  constructor(private readonly deps: DesktopWallpaperDeps) {}

  /** Stores the image (converted, see prepareWallpaper) and makes it the wallpaper; answers the new appearance. */
  async upload(userId: number, body: Readable, declaredLength: number | null): Promise<Appearance> {
    const input = await readBody(body, declaredLength, maxWallpaperUploadBytes);
    const image = await prepareWallpaper(input);
    await this.deps.store.save(userId, image.webp);
    // Never the bytes: who, how much, and what was kept.
    this.deps.logger.info('wallpaper uploaded', {
      logCode: 'desktop.wallpaperUploaded',
      component: 'desktop',
      userId,
      bytes: input.length,
      storedBytes: image.webp.length,
      width: image.width,
      height: image.height,
    });
    const current = await this.deps.appearance.get(userId);
    return this.deps.appearance.set(userId, { accentColor: current.accentColor, wallpaper: customWallpaper });
  }

  /** The caller's image for reading, or 404. */
  async open(userId: number): Promise<StoredWallpaper> {
    const stored = await this.deps.store.open(userId);
    if (!stored) throw new ProblemError('desktop.wallpaper.not_found');
    return stored;
  }

  /** Idempotent; a `custom` wallpaper falls back to the default built-in one. */
  async remove(userId: number): Promise<void> {
    const current = await this.deps.appearance.get(userId);
    const removed = await this.deps.store.remove(userId);
    if (removed) this.deps.logger.info('wallpaper removed', { logCode: 'desktop.wallpaperRemoved', component: 'desktop', userId });
    // Saved again even when a built-in one stays: the appearance lost its wallpaperVersion, and other tabs hear of it.
    if (removed || current.wallpaper === customWallpaper) {
      const wallpaper = current.wallpaper === customWallpaper ? defaultAppearance.wallpaper : current.wallpaper;
      await this.deps.appearance.set(userId, { accentColor: current.accentColor, wallpaper });
    }
  }

  /** After a user was deleted: their image goes too (their appearance row went with the user). */
  async userDeleted(userId: number): Promise<void> {
    if (await this.deps.store.remove(userId)) this.deps.logger.info('wallpaper removed with its user', { component: 'desktop', userId });
  }
}
