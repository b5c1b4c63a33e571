import { authRoutes } from '../../../../shared/src/api/auth.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { AuthService } from './auth.service.ts';

export function authHandlers(auth: AuthService): AreaHandlers<typeof authRoutes> {
  return {
    login: ({ req, body }) => auth.login(req, body),
    loginTotp: ({ req, body }) => auth.loginTotp(req, body.code),
    recover: ({ req, body }) => auth.recover(req, body),
    logout: ({ req }) => auth.logout(req),
    session: ({ req, user }) => auth.session(req, user),
    totpEnroll: ({ user }) => auth.totpEnroll(user),
    totpConfirm: ({ user, body }) => auth.totpConfirm(user, body.code),
    totpDisable: ({ req, user, body }) => auth.totpDisable(req, user, body),
    changePassword: ({ req, user, body }) => auth.changePassword(req, user, body),
  };
}
