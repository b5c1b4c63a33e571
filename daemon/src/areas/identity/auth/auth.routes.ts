import { authRoutes } from '../../../../../shared/src/api/identity/auth.ts';
import type { AreaHandlers } from '../../../http/handler.ts';
import type { AuthService } from './auth.service.ts';

export function authHandlers(auth: AuthService): AreaHandlers<typeof authRoutes> {
  return {
    login: ({ req, res, body }) => auth.login(req, res, body),
    loginTotp: ({ req, res, body }) => auth.loginTotp(req, res, body.code),
    recover: ({ req, res, body }) => auth.recover(req, res, body),
    logout: ({ req }) => auth.logout(req),
    session: ({ req, user }) => auth.session(req, user),
    totpEnroll: ({ user }) => auth.totpEnroll(user),
    totpConfirm: ({ user, body }) => auth.totpConfirm(user, body.code),
    totpDisable: ({ req, user, body }) => auth.totpDisable(req, user, body),
    changePassword: ({ req, user, body }) => auth.changePassword(req, user, body),
    setLanguage: ({ user, body }) => auth.setLanguage(user, body.language),
  };
}
