import type { Metadata } from 'sharp';
import type { ThumbnailReason } from '../../../../../shared/src/api/files/thumbnails.ts';
import { loadSharp } from '../../../host/images/sharp.ts';
import type { ImageFormat } from './image-sniff.ts';

export interface RenderLimits {
  /** Largest width x height decoded; larger images fail as tooManyPixels before any pixel is read. */
  maxPixels: number;
  /** A render taking longer is stopped and fails as timeout. */
  timeoutSeconds: number;
}

/** 50 MP covers the photos of every current phone and most cameras, and bounds memory per render. */
export const defaultRenderLimits: RenderLimits = { maxPixels: 50_000_000, timeoutSeconds: 30 };

export type RenderOutcome = { ok: true } | { ok: false; reason: ThumbnailReason; detail: string };

/**
 * Renders a WebP of at most `size` x `size` from `input` (a file name libvips opens),
 * whose sniffed format must agree with what the decoder finds. The header is read first:
 * a decompression bomb (a tiny file declaring billions of pixels) is refused on its declared
 * size, and the decoder keeps the same pixel limit in case the header lied.
 * Animated GIF and WebP give their first frame; EXIF orientation is applied.
 */
export async function renderThumbnail(
  input: string,
  format: ImageFormat,
  size: number,
  output: string,
  limits: RenderLimits = defaultRenderLimits,
): Promise<RenderOutcome> {
  const sharp = await loadSharp();
  let header: Metadata;
  try {
    header = await sharp(input, { limitInputPixels: false, failOn: 'error' }).metadata();
  } catch (err) {
    return { ok: false, reason: 'corrupt', detail: err instanceof Error ? err.message : String(err) };
  }
  if (header.format !== format) return { ok: false, reason: 'corrupt', detail: `content decodes as ${header.format}, not ${format}` };
  const pixels = (header.width ?? 0) * (header.pageHeight ?? header.height ?? 0);
  if (pixels > limits.maxPixels) {
    return { ok: false, reason: 'tooManyPixels', detail: `${header.width} x ${header.height} is more than ${limits.maxPixels} pixels` };
  }
  const started = Date.now();
  try {
    await sharp(input, { limitInputPixels: limits.maxPixels, sequentialRead: true, failOn: 'error', animated: false, pages: 1 })
      .autoOrient()
      .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80, effort: 2 })
      .timeout({ seconds: limits.timeoutSeconds })
      .toFile(output);
    return { ok: true };
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    // libvips says "timeout" only in its message; the clock tells the same without reading it.
    const timedOut = Date.now() - started >= limits.timeoutSeconds * 1000;
    return { ok: false, reason: timedOut ? 'timeout' : 'corrupt', detail };
  }
}
