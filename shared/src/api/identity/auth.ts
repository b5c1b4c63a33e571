import Joi from 'joi';
import { id } from '../common.ts';
import { defineRoute } from '../route.ts';
import { languages, type Language } from '../system/system.ts';

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

export interface TotpLoginRequest {
  code: string;
}

export interface RecoverRequest {
  username: string;
  password: string;
  recoveryCode: string;
}

/** Recovery signs in and uses up the code; TOTP stays on. */
export interface RecoverResponse {
  user: UserInfo;
  recoveryCodesLeft: number;
}

export interface TotpEnrollment {
  /** Base32 secret, for typing into an authenticator app by hand. */
  secret: string;
  /** otpauth:// URI of the secret. */
  uri: string;
  /** The URI as a QR code image made on the box: a data: URL of a PNG. */
  qrCode: string;
}

export interface TotpConfirmRequest {
  code: string;
}

export interface RecoveryCodes {
  /** Ten single-use codes, shown once; the box keeps only their hashes. */
  codes: string[];
}

export interface TotpDisableRequest {
  password: string;
  /** A current code of the authenticator app, or an unused recovery code (for a lost device). */
  code: string;
}

export interface PasswordChangeRequest {
  currentPassword: string;
  newPassword: string;
}

export interface LanguageChangeRequest {
  language: Language;
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

/** A 6-digit TOTP code; spaces an app shows in the middle are allowed. */
const totpCode = () =>
  Joi.string()
    .trim()
    .replace(/\s+/g, '')
    .pattern(/^\d{6}$/);
/** The password rules proper (length, user name, common list) are checked by the daemon with auth.password.weak. */
const newPassword = () => Joi.string().min(1).max(1024);

export const totpLoginRequest = Joi.object<TotpLoginRequest, true>({ code: totpCode().required() }).id('TotpLoginRequest');

export const recoverRequest = Joi.object<RecoverRequest, true>({
  username: Joi.string().min(1).max(64).required(),
  password: Joi.string().min(1).max(1024).required(),
  recoveryCode: Joi.string().trim().min(1).max(64).required(),
}).id('RecoverRequest');

export const recoverResponse = Joi.object<RecoverResponse, true>({
  user: userInfo.required(),
  recoveryCodesLeft: Joi.number().integer().min(0).required(),
}).id('RecoverResponse');

export const totpEnrollment = Joi.object<TotpEnrollment, true>({
  secret: Joi.string().required(),
  uri: Joi.string()
    .pattern(/^otpauth:\/\/totp\//)
    .required(),
  qrCode: Joi.string()
    .pattern(/^data:image\/png;base64,/)
    .required(),
}).id('TotpEnrollment');

export const totpConfirmRequest = Joi.object<TotpConfirmRequest, true>({ code: totpCode().required() }).id('TotpConfirmRequest');

export const recoveryCodes = Joi.object<RecoveryCodes, true>({
  codes: Joi.array().items(Joi.string()).length(10).required(),
}).id('RecoveryCodes');

export const totpDisableRequest = Joi.object<TotpDisableRequest, true>({
  password: Joi.string().min(1).max(1024).required(),
  code: Joi.string().trim().min(1).max(64).required(),
}).id('TotpDisableRequest');

export const passwordChangeRequest = Joi.object<PasswordChangeRequest, true>({
  currentPassword: Joi.string().min(1).max(1024).required(),
  newPassword: newPassword().required(),
}).id('PasswordChangeRequest');

export const languageChangeRequest = Joi.object<LanguageChangeRequest, true>({
  language: Joi.string()
    .valid(...languages)
    .required(),
}).id('LanguageChangeRequest');

export { newPassword };

export const authRoutes = {
  login: defineRoute({
    id: 'auth.login',
    method: 'POST',
    path: '/api/auth/login',
    access: 'public',
    csrfExempt: true,
    summary: 'Signs in with user name and password',
    description:
      'Answers the signed-in user, or `totpRequired` when the second step (POST /api/auth/login/totp) follows. Wrong name, wrong password and a deactivated user answer the same 401. A success sets the device cookie `box.device`; failures are throttled per device cookie, or for clients without one per name and address, per name and per address (see the introduction).',
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
  loginTotp: defineRoute({
    id: 'auth.loginTotp',
    method: 'POST',
    path: '/api/auth/login/totp',
    access: 'public',
    csrfExempt: true,
    summary: 'Second sign-in step: a code of the authenticator app',
    description:
      'Completes a sign-in that answered `totpRequired`, within 5 minutes of the password step. A code is accepted once (the same time step is refused with auth.totp.reused). Failures count towards sign-in throttling.',
    body: totpLoginRequest,
    status: 200,
    response: userInfo,
    errors: ['auth.totp.pending_missing', 'auth.totp.invalid', 'auth.totp.reused', 'auth.login.throttled', 'auth.origin.invalid'],
  }),
  recover: defineRoute({
    id: 'auth.recover',
    method: 'POST',
    path: '/api/auth/recover',
    access: 'public',
    csrfExempt: true,
    summary: 'Signs in with user name, password and a recovery code',
    description:
      'For a user with TOTP on who has no authenticator at hand. Signs in fully and uses the recovery code up (each works once); TOTP stays on. To move to a new device, turn TOTP off with the password and another recovery code (POST /api/auth/totp/disable) and enrol again. Failures count towards sign-in throttling.',
    body: recoverRequest,
    status: 200,
    response: recoverResponse,
    errors: ['auth.credentials.invalid', 'auth.recovery.invalid', 'auth.login.throttled', 'auth.origin.invalid'],
  }),
  totpEnroll: defineRoute({
    id: 'auth.totpEnroll',
    method: 'POST',
    path: '/api/auth/totp/enroll',
    access: 'user',
    summary: 'Starts TOTP enrolment: a new secret, its otpauth URI and a QR code',
    description: 'TOTP is on only after POST /api/auth/totp/confirm. Enrolling again before confirming replaces the secret.',
    status: 200,
    response: totpEnrollment,
    errors: ['auth.totp.already_enabled'],
  }),
  totpConfirm: defineRoute({
    id: 'auth.totpConfirm',
    method: 'POST',
    path: '/api/auth/totp/confirm',
    access: 'user',
    summary: 'Turns TOTP on with a current code and answers 10 recovery codes',
    body: totpConfirmRequest,
    status: 200,
    response: recoveryCodes,
    errors: ['auth.totp.not_enrolling', 'auth.totp.already_enabled', 'auth.totp.invalid'],
  }),
  totpDisable: defineRoute({
    id: 'auth.totpDisable',
    method: 'POST',
    path: '/api/auth/totp/disable',
    access: 'user',
    summary: 'Turns TOTP off with the password and a current code (or an unused recovery code)',
    body: totpDisableRequest,
    status: 204,
    errors: ['auth.totp.not_enabled', 'auth.password.wrong', 'auth.totp.invalid', 'auth.totp.reused', 'auth.login.throttled'],
  }),
  changePassword: defineRoute({
    id: 'auth.changePassword',
    method: 'PUT',
    path: '/api/auth/password',
    access: 'user',
    summary: "Changes the caller's own password (also for SMB and SFTP)",
    description:
      'Needs the current password. The new one must have at least 10 characters, differ from the user name and not be one of the most common passwords (auth.password.weak with params.reason). Every other session of the user ends; this one stays.',
    body: passwordChangeRequest,
    status: 204,
    errors: ['auth.password.wrong', 'auth.password.weak', 'auth.login.throttled', 'users.account.host_failed'],
  }),
  setLanguage: defineRoute({
    id: 'auth.setLanguage',
    method: 'PUT',
    path: '/api/auth/language',
    access: 'user',
    summary: "Sets the caller's own language (desktop texts, dates and numbers)",
    description: 'Takes effect at once for this desktop; the user’s other sessions read it at their next sign-in or reload.',
    body: languageChangeRequest,
    status: 204,
    errors: [],
  }),
};
