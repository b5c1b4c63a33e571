import type { Request } from 'express';
import type { desktopWallpaperRoutes } from '../../../../shared/src/api/desktop/desktop.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import { sendStoredImage } from '../../http/send-image.ts';
import type { DesktopWallpaper } from './desktop-wallpaper.ts';

function declaredLength(req: Request): number | null {
  const header = req.get('Content-Length');
  return header === undefined ? null : Number(header);
}

export function desktopWallpaperHandlers(wallpaper: DesktopWallpaper): AreaHandlers<typeof desktopWallpaperRoutes> {
  return {
    uploadWallpaper: ({ user, req }) => wallpaper.upload(user.id, req, declaredLength(req)),
    getWallpaper: async ({ user, query, req, res }) => {
      const file = await wallpaper.open(user.id);
      await sendStoredImage(req, res, { handle: file.handle, size: file.size, etag: `"${file.version}"`, pinned: query.v === file.version });
    },
    deleteWallpaper: ({ user }) => wallpaper.remove(user.id),
  };
}
