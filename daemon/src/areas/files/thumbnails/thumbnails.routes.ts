import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { thumbnailsRoutes } from '../../../../../shared/src/api/thumbnails.ts';
import type { AreaHandlers } from '../../../http/handler.ts';
import type { ThumbnailFile, ThumbnailsService } from './thumbnails.service.ts';

/**
 * With the current `v` in the URL the answer never changes (a new file version gets a new
 * URL), so browsers keep it a year without asking; without `v` they revalidate by ETag.
 */
async function sendThumbnail(req: Request, res: Response, file: ThumbnailFile, size: number): Promise<void> {
  try {
    const etag = `"${file.v}-${size}"`;
    res.setHeader('Content-Type', 'image/webp');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', 'sandbox');
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', file.immutable ? 'private, max-age=31536000, immutable' : 'private, no-cache');
    if (
      req
        .get('If-None-Match')
        ?.split(',')
        .some((t) => t.trim().replace(/^W\//, '') === etag)
    ) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Length', String(file.length));
    res.status(200);
    await pipeline(file.handle.createReadStream({ autoClose: false }), res).catch((err: unknown) => {
      // The client went away (scrolled past): nothing to answer any more.
      if (res.destroyed || (err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
      throw err;
    });
  } finally {
    await file.handle.close().catch(() => undefined);
  }
}

export function thumbnailsHandlers(thumbnails: ThumbnailsService): AreaHandlers<typeof thumbnailsRoutes> {
  return {
    get: async ({ user, params, query, req, res }) => {
      const file = await thumbnails.thumbnail(user, params.shareId, query);
      await sendThumbnail(req, res, file, query.size ?? 256);
    },
    states: ({ user, params, body }) => thumbnails.states(user, params.shareId, body),
  };
}
