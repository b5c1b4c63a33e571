import { thumbnailsRoutes } from '../../../../../shared/src/api/files/thumbnails.ts';
import type { AreaHandlers } from '../../../http/handler.ts';
import { sendStoredImage } from '../../../http/send-image.ts';
import type { ThumbnailsService } from './thumbnails.service.ts';

export function thumbnailsHandlers(thumbnails: ThumbnailsService): AreaHandlers<typeof thumbnailsRoutes> {
  return {
    get: async ({ user, params, query, req, res }) => {
      const file = await thumbnails.thumbnail(user, params.shareId, query);
      await sendStoredImage(req, res, { handle: file.handle, size: file.length, etag: `"${file.v}-${query.size ?? 256}"`, pinned: file.immutable });
    },
    states: ({ user, params, body }) => thumbnails.states(user, params.shareId, body),
  };
}
