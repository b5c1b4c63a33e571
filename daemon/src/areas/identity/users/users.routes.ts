import { usersRoutes } from '../../../../../shared/src/api/identity/users.ts';
import type { AreaHandlers } from '../../../http/handler.ts';
import type { UsersService } from './users.service.ts';

export function usersHandlers(users: UsersService): AreaHandlers<typeof usersRoutes> {
  return {
    list: () => users.list(),
    create: ({ body }) => users.create(body),
    update: ({ user, params, body }) => users.update(user, params.userId, body),
    remove: ({ user, params, query }) => users.remove(user, params.userId, query),
    resetPassword: ({ params, body }) => users.setPassword(params.userId, body.password),
  };
}
