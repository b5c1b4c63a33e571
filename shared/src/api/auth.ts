import Joi from 'joi';
import { id } from './common.ts';
import { defineRoute } from './route.ts';
import { languages, type Language } from './system.ts';

export interface UserInfo {
  id: number;
  username: string;
  displayName: string;
  admin: boolean;
  totpEnabled: boolean;
  language: Language;
  /** Send as X-CSRF-Token with every state-changing request of this session. */
  csrfToken: string;
}

export interface LoginRequest {
  username: string;
  password: string;
}

export type LoginResponse = { state: 'signedIn'; user: UserInfo } | { state: 'totpRequired' };

export const userInfo = Joi.object<UserInfo, true>({
  id: id().required(),
  username: Joi.string().required(),
  displayName: Joi.string().allow('').required(),
  admin: Joi.boolean().required(),
  totpEnabled: Joi.boolean().required(),
  language: Joi.string()
    .valid(...languages)
    .required(),
  csrfToken: Joi.string().required(),
}).id('UserInfo');

export const loginRequest = Joi.object<LoginRequest, true>({
  username: Joi.string().min(1).max(64).required(),
  password: Joi.string().min(1).max(1024).required(),
}).id('LoginRequest');

export const loginResponse = Joi.alternatives<LoginResponse>()
  .try(
    Joi.object({ state: Joi.string().valid('signedIn').required(), user: userInfo.required() }),
    Joi.object({ state: Joi.string().valid('totpRequired').required() }),
  )
  .id('LoginResponse');

export const authRoutes = {
  login: defineRoute({
    id: 'auth.login',
    method: 'POST',
    path: '/api/auth/login',
    access: 'public',
    csrfExempt: true,
    summary: 'Signs in with user name and password',
    description:
      'Answers the signed-in user, or `totpRequired` when the second step (POST /api/auth/login/totp) follows. Wrong name, wrong password and a deactivated user answer the same 401.',
    body: loginRequest,
    status: 200,
    response: loginResponse,
    errors: ['auth.credentials.invalid', 'auth.login.throttled', 'auth.origin.invalid'],
  }),
  logout: defineRoute({
    id: 'auth.logout',
    method: 'POST',
    path: '/api/auth/logout',
    access: 'user',
    summary: 'Ends this session and closes its live connections',
    status: 204,
    errors: [],
  }),
  session: defineRoute({
    id: 'auth.session',
    method: 'GET',
    path: '/api/auth/session',
    access: 'user',
    summary: 'The signed-in user of this session, with its CSRF token',
    status: 200,
    response: userInfo,
    errors: [],
  }),
};
