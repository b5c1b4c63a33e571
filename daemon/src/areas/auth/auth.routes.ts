import { authRoutes } from '../../../../shared/src/api/auth.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { AuthService } from './auth.service.ts';

export function authHandlers(auth: AuthService): AreaHandlers<typeof authRoutes> {
  return {
    login: ({ req, body }) => auth.login(req, body),
    logout: ({ req }) => auth.logout(req),
    session: ({ req, user }) => auth.session(req, user.id),
  };
}
