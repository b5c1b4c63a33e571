import type { FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';

/** A stored WebP the box made itself (a thumbnail, a wallpaper), opened for sending. */
export interface StoredImage {
  handle: FileHandle;
  size: number;
  /** The quoted strong ETag of this version. */
  etag: string;
  /**
   * Whether the URL named this very version (`?v=`): such an answer never changes, since a new
   * version gets a new URL, so browsers keep it a year without asking; otherwise they revalidate.
   */
  pinned: boolean;
}

/**
 * Sends the image with its ETag (304 on a match), per-user caching and, as for every file answer,
 * nosniff and a sandbox policy. Closes the handle in every case; a client gone meanwhile is no error.
 */
export async function sendStoredImage(req: Request, res: Response, image: StoredImage): Promise<void> {
  try {
    res.setHeader('Content-Type', 'image/webp');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', 'sandbox');
    res.setHeader('ETag', image.etag);
    res.setHeader('Cache-Control', image.pinned ? 'private, max-age=31536000, immutable' : 'private, no-cache');
    const tags = req.get('If-None-Match')?.split(',') ?? [];
    if (tags.some((t) => t.trim().replace(/^W\//, '') === image.etag)) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Length', String(image.size));
    res.status(200);
    await pipeline(image.handle.createReadStream({ autoClose: false }), res).catch((err: unknown) => {
      if (res.destroyed || (err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
      throw err;
    });
  } finally {
    await image.handle.close().catch(() => undefined);
  }
}
