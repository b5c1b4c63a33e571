import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import type { desktopWallpaperRoutes } from '../../../../shared/src/api/desktop.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { DesktopWallpaper } from './desktop-wallpaper.ts';
import type { StoredWallpaper } from './wallpaper-store.ts';

function declaredLength(req: Request): number | null {
  const header = req.get('Content-Length');
  return header === undefined ? null : Number(header);
}

/**
 * With the current version in `v` the answer never changes (a new image gets a new URL), so the
 * browser keeps it a year without asking; otherwise it revalidates by ETag.
 */
async function sendWallpaper(req: Request, res: Response, file: StoredWallpaper, v: string | undefined): Promise<void> {
  try {
    const etag = `"${file.version}"`;
    res.setHeader('Content-Type', 'image/webp');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', v === file.version ? 'private, max-age=31536000, immutable' : 'private, no-cache');
    const tags = req.get('If-None-Match')?.split(',') ?? [];
    if (tags.some((t) => t.trim().replace(/^W\//, '') === etag)) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Length', String(file.size));
    res.status(200);
    await pipeline(file.handle.createReadStream({ autoClose: false }), res).catch((err: unknown) => {
      // The client went away: nothing to answer any more.
      if (res.destroyed || (err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
      throw err;
    });
  } finally {
    await file.handle.close().catch(() => undefined);
  }
}

export function desktopWallpaperHandlers(wallpaper: DesktopWallpaper): AreaHandlers<typeof desktopWallpaperRoutes> {
  return {
    uploadWallpaper: ({ user, req }) => wallpaper.upload(user.id, req, declaredLength(req)),
    getWallpaper: async ({ user, query, req, res }) => sendWallpaper(req, res, await wallpaper.open(user.id), query.v),
    deleteWallpaper: ({ user }) => wallpaper.remove(user.id),
  };
}
