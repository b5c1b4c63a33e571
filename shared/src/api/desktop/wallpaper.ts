import Joi from 'joi';
import { appearanceSchema, wallpaperVersion } from './state.ts';
import { defineRoute } from '../route.ts';

/** Largest accepted upload: a full-size photo of any current camera fits. */
export const maxWallpaperUploadBytes = 25 * 1024 * 1024;
/** The stored image fits within this box (4K UHD), never enlarged. */
export const wallpaperMaxSize = { width: 3840, height: 2160 } as const;
/** Images declaring more pixels are refused before decoding (decompression bombs). */
export const wallpaperMaxInputPixels = 100_000_000;

export interface WallpaperQuery {
  v?: string;
}

/** The caller's own wallpaper image: there is no user id in the path, so nobody reads another's. */
export const desktopWallpaperRoutes = {
  uploadWallpaper: defineRoute({
    id: 'desktop.uploadWallpaper',
    method: 'PUT',
    path: '/api/desktop/wallpaper',
    access: 'user',
    summary: "Stores an image as the caller's wallpaper and makes it the wallpaper (`custom`); answers 200 with the appearance",
    description:
      'The body is the image itself (JPEG, PNG or WebP, at most 25 MiB). Its type is recognised by its content, not by Content-Type. ' +
      'Images declaring more than 100 million pixels, or that do not decode, answer 400 `desktop.wallpaper.invalid`. ' +
      'The box turns it upright by its EXIF orientation, drops all metadata (GPS included), shrinks it to fit 3840 x 2160 and stores it as WebP, ' +
      'replacing an earlier one only once the new one is complete. The answer carries the new `wallpaperVersion`.',
    body: { raw: true, contentType: 'image/*' },
    bodyLimit: maxWallpaperUploadBytes,
    status: 200,
    response: appearanceSchema,
    errors: ['desktop.wallpaper.invalid', 'request.body.too_large'],
  }),
  getWallpaper: defineRoute({
    id: 'desktop.getWallpaper',
    method: 'GET',
    path: '/api/desktop/wallpaper',
    access: 'user',
    summary: "The caller's uploaded wallpaper as WebP; cached for a year when `v` is its current version",
    description: 'ETag is the version; If-None-Match with it answers 304. Without an uploaded image: 404 `desktop.wallpaper.not_found`.',
    headers: ['If-None-Match'],
    query: Joi.object<WallpaperQuery, true>({ v: wallpaperVersion() }),
    status: 200,
    response: { raw: true, contentType: 'image/webp' },
    errors: ['desktop.wallpaper.not_found'],
  }),
  deleteWallpaper: defineRoute({
    id: 'desktop.deleteWallpaper',
    method: 'DELETE',
    path: '/api/desktop/wallpaper',
    access: 'user',
    summary: "Removes the caller's uploaded wallpaper; a `custom` wallpaper falls back to the default built-in one; also 204 when there is none",
    status: 204,
    errors: [],
  }),
};
