import { permissionsRoutes } from '../../../../../shared/src/api/identity/permissions.ts';
import type { AreaHandlers } from '../../../http/handler.ts';
import type { PermissionsService } from './permissions.service.ts';

export function permissionsHandlers(permissions: PermissionsService): AreaHandlers<typeof permissionsRoutes> {
  return {
    catalog: () => permissions.catalog(),
    groupGrants: ({ params }) => permissions.groupGrants(params.groupId),
    setGroupGrants: ({ params, body }) => permissions.setGroupGrants(params.groupId, body.rights),
    userGrants: ({ params }) => permissions.userGrants(params.userId),
    setUserGrants: ({ params, body }) => permissions.setUserGrants(params.userId, body.rights),
  };
}
