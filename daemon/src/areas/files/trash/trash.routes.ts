import type { trashRoutes } from '../../../../../shared/src/api/files/trash.ts';
import type { AreaHandlers } from '../../../http/handler.ts';
import type { TrashService } from './trash.service.ts';

export function trashHandlers(trash: TrashService): AreaHandlers<typeof trashRoutes> {
  return {
    list: ({ user, params, query }) => trash.list(user, params.shareId, query),
    restore: ({ user, params, body }) => trash.restore(user, params.shareId, body),
    remove: ({ user, params, body }) => trash.remove(user, params.shareId, body),
    empty: ({ user, params }) => trash.empty(user, params.shareId),
  };
}
