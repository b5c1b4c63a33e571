import type { Metadata } from 'sharp';
import { wallpaperMaxInputPixels, wallpaperMaxSize } from '../../../../shared/src/api/desktop/desktop.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { loadSharp } from '../../host/images/sharp.ts';

const accepted = new Set(['jpeg', 'png', 'webp']);

export interface WallpaperImage {
  webp: Buffer;
  width: number;
  height: number;
}

function invalid(reason: string): ProblemError {
  return new ProblemError('desktop.wallpaper.invalid', { reason });
}

/**
 * Turns an uploaded image into the stored wallpaper. The type comes from the content as the
 * decoder reads it, never from Content-Type. The header is read first, so a decompression bomb
 * (a small file declaring billions of pixels) is refused before any pixel is decoded, and the
 * decoder keeps the same limit in case the header lied. The output is upright (EXIF orientation),
 * without any metadata (sharp writes none unless asked: no GPS, no camera), fits 3840 x 2160
 * without being enlarged, and is WebP.
 */
export async function prepareWallpaper(input: Buffer): Promise<WallpaperImage> {
  const sharp = await loadSharp();
  let header: Metadata;
  try {
    header = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw invalid('notAnImage');
  }
  if (!header.format || !accepted.has(header.format)) throw invalid('unsupportedType');
  if ((header.width ?? 0) * (header.pageHeight ?? header.height ?? 0) > wallpaperMaxInputPixels) throw invalid('tooManyPixels');
  try {
    const { data, info } = await sharp(input, { limitInputPixels: wallpaperMaxInputPixels, failOn: 'error', animated: false, pages: 1 })
      .autoOrient()
      .resize({ ...wallpaperMaxSize, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85 })
      .timeout({ seconds: 60 })
      .toBuffer({ resolveWithObject: true });
    return { webp: data, width: info.width, height: info.height };
  } catch {
    // Truncated or corrupt data: libvips stops at the first decoding error.
    throw invalid('corrupt');
  }
}
