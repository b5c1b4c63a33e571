import type { homesRoutes } from '../../../../shared/src/api/storage/homes.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { HomesService } from './homes.service.ts';

export function homesHandlers(homes: HomesService): AreaHandlers<typeof homesRoutes> {
  return {
    overview: () => homes.overview(),
    delete: async ({ params, query }) => void (await homes.delete(params.shareId, query.confirm)),
    release: ({ params, body, user }) => homes.release(params.shareId, body.shareId, user.id),
    move: ({ body, user }) => homes.move(body.pool, user.id),
    settings: ({ body }) => homes.setSettings(body),
    setQuota: ({ params, body }) => homes.setQuota(params.userId, body.quotaBytes),
  };
}
