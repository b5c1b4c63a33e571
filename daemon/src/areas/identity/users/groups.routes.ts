import { groupsRoutes } from '../../../../../shared/src/api/identity/groups.ts';
import type { AreaHandlers } from '../../../http/handler.ts';
import type { GroupsService } from './groups.service.ts';

export function groupsHandlers(groups: GroupsService): AreaHandlers<typeof groupsRoutes> {
  return {
    list: () => groups.list(),
    create: ({ body }) => groups.create(body),
    update: ({ params, body }) => groups.update(params.groupId, body),
    remove: ({ params }) => groups.remove(params.groupId),
  };
}
