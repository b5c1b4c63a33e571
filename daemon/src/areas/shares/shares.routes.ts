import { sharesRoutes } from '../../../../shared/src/api/shares/shares.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { SharesService } from './shares.service.ts';

export function sharesHandlers(shares: SharesService): AreaHandlers<typeof sharesRoutes> {
  return {
    list: ({ user }) => shares.list(user),
    create: ({ body }) => shares.create(body),
    details: () => shares.details(),
    update: ({ params, body }) => shares.update(params.shareId, body),
    grants: ({ params }) => shares.grants(params.shareId),
    setGrants: ({ params, body }) => shares.setGrants(params.shareId, body),
    setRestorePoints: ({ params, body }) => shares.setRestorePoints(params.shareId, body.enabled),
    setTrash: ({ params, body }) => shares.setTrashRetention(params.shareId, body.retentionDays),
  };
}
