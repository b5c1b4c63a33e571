import type { Request, Response } from 'express';
import type {
  LoginRequest,
  LoginResponse,
  PasswordChangeRequest,
  RecoverRequest,
  RecoverResponse,
  RecoveryCodes,
  TotpDisableRequest,
  TotpEnrollment,
  UserInfo,
} from '../../../../../shared/src/api/identity/auth.ts';
import type { Language } from '../../../../../shared/src/api/system/system.ts';
import type { Logger } from '../../../core/logger.ts';
import type { Principal } from '../../../core/principal.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import { csrfTokenOf } from '../../../http/csrf.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../users/passwords.ts';
import type { UserRow } from '../users/user.model.ts';
import type { UsersService } from '../users/users.service.ts';
import { deviceCookieIn, deviceCookieMaxAgeMs, deviceCookieName, deviceCookiePath, type DeviceCookies } from './device-cookie.ts';
import type { LoginThrottle, SignInClient } from './throttle.ts';
import type { TotpService } from './totp.service.ts';

export interface AuthDeps {
  users: UsersService;
  totp: TotpService;
  throttle: LoginThrottle;
  devices: DeviceCookies;
  logger: Logger;
  /** Told after a user changed their own password (the first administrator's password file goes). */
  passwordChanged(user: UserRow): void;
}

/** How long the half-signed-in state between password and code lasts. */
export const pendingTotpMs = 5 * 60_000;

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
}

function destroy(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
}

function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

export class AuthService {
  constructor(private readonly deps: AuthDeps) {}

  /** Who is trying, for the throttle: a forged, expired or other user's device cookie counts as none. */
  private client(req: Request, username: string): SignInClient {
    const device = this.deps.devices.deviceOf(deviceCookieIn(req.headers.cookie), username);
    return { username, address: clientAddress(req), device };
  }

  /**
   * Checks name and password with the same answer and about the same time for an unknown
   * name, a wrong password and a deactivated user; failures count towards throttling.
   */
  private async credentials(req: Request, username: string, password: string): Promise<UserRow> {
    const client = this.client(req, username);
    await this.deps.throttle.check(client);
    const user = await this.deps.users.findByName(username);
    const ok = await verifyPassword(password, user?.passwordHash ?? dummyHash);
    if (!user || !ok || !user.active) {
      await this.deps.throttle.failed(client);
      this.deps.logger.info('sign-in refused', {
        logCode: 'auth.signInRefused',
        component: 'auth',
        username,
        address: client.address,
        knownDevice: client.device !== null,
      });
      throw new ProblemError('auth.credentials.invalid');
    }
    if (needsRehash(user.passwordHash)) await user.update({ passwordHash: await hashPassword(password) });
    return user;
  }

  private async signIn(req: Request, res: Response, user: UserRow, how: string): Promise<UserInfo> {
    await this.deps.throttle.succeeded(this.client(req, user.username));
    // A fresh device cookie at every sign-in: this browser is known for another year.
    res.cookie(deviceCookieName, this.deps.devices.issue(user.username), {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.secure,
      path: deviceCookiePath,
      maxAge: deviceCookieMaxAgeMs,
    });
    // A new session id at sign-in, so a session id planted before cannot be ridden.
    await regenerate(req);
    req.session.userId = user.id;
    req.session.signedInAt = Date.now();
    this.deps.logger.info('signed in', { logCode: 'auth.signedIn', component: 'auth', userId: user.id, username: user.username, how });
    return this.userInfo(req, user);
  }

  async login(req: Request, res: Response, body: LoginRequest): Promise<LoginResponse> {
    const user = await this.credentials(req, body.username, body.password);
    if (await this.deps.totp.enabled(user.id)) {
      await regenerate(req);
      req.session.pendingUserId = user.id;
      req.session.pendingSince = Date.now();
      return { state: 'totpRequired' };
    }
    return { state: 'signedIn', user: await this.signIn(req, res, user, 'password') };
  }

  async loginTotp(req: Request, res: Response, code: string): Promise<UserInfo> {
    const { pendingUserId, pendingSince } = req.session;
    const user = pendingUserId === undefined ? null : await this.deps.users.findById(pendingUserId);
    if (!user || !user.active || pendingSince === undefined || Date.now() - pendingSince > pendingTotpMs) {
      delete req.session.pendingUserId;
      delete req.session.pendingSince;
      throw new ProblemError('auth.totp.pending_missing');
    }
    const client = this.client(req, user.username);
    await this.deps.throttle.check(client);
    const result = await this.deps.totp.check(user.id, code);
    if (result !== 'ok') {
      await this.deps.throttle.failed(client);
      throw new ProblemError(result === 'reused' ? 'auth.totp.reused' : 'auth.totp.invalid');
    }
    return this.signIn(req, res, user, 'totp');
  }

  /** Signs in with a recovery code instead of the TOTP code and uses the code up; TOTP stays on. */
  async recover(req: Request, res: Response, body: RecoverRequest): Promise<RecoverResponse> {
    const user = await this.credentials(req, body.username, body.password);
    const used = (await this.deps.totp.enabled(user.id)) && (await this.deps.totp.useRecoveryCode(user.id, body.recoveryCode));
    if (!used) {
      await this.deps.throttle.failed(this.client(req, user.username));
      throw new ProblemError('auth.recovery.invalid');
    }
    const info = await this.signIn(req, res, user, 'recovery code');
    return { user: info, recoveryCodesLeft: await this.deps.totp.recoveryCodesLeft(user.id) };
  }

  async logout(req: Request): Promise<void> {
    await destroy(req);
  }

  /** Built from the request's principal: the most frequent call of the desktop reads no table. */
  session(req: Request, user: Principal): UserInfo {
    return {
      id: user.id,
      username: user.username,
      displayName: user.displayName,
      admin: user.admin,
      totpEnabled: user.totpEnabled,
      language: user.language,
      csrfToken: csrfTokenOf(req),
    };
  }

  async totpEnroll(principal: Principal): Promise<TotpEnrollment> {
    return this.deps.totp.enroll(principal.id, principal.username);
  }

  async totpConfirm(principal: Principal, code: string): Promise<RecoveryCodes> {
    return this.deps.totp.confirm(principal.id, code);
  }

  /** Checks the signed-in user's current password; wrong tries count towards throttling. */
  private async currentPassword(req: Request, principal: Principal, password: string): Promise<UserRow> {
    const client = this.client(req, principal.username);
    await this.deps.throttle.check(client);
    const user = await this.deps.users.findById(principal.id);
    if (!user || !(await verifyPassword(password, user.passwordHash))) {
      await this.deps.throttle.failed(client);
      throw new ProblemError('auth.password.wrong');
    }
    return user;
  }

  /** Needs the password and a current code; an unused recovery code also serves, for a lost device. */
  async totpDisable(req: Request, principal: Principal, body: TotpDisableRequest): Promise<void> {
    if (!(await this.deps.totp.enabled(principal.id))) throw new ProblemError('auth.totp.not_enabled');
    await this.currentPassword(req, principal, body.password);
    const code = body.code.replace(/\s+/g, '');
    const result = /^\d{6}$/.test(code)
      ? await this.deps.totp.check(principal.id, code)
      : (await this.deps.totp.useRecoveryCode(principal.id, code))
        ? 'ok'
        : 'invalid';
    if (result !== 'ok') {
      await this.deps.throttle.failed(this.client(req, principal.username));
      throw new ProblemError(result === 'reused' ? 'auth.totp.reused' : 'auth.totp.invalid');
    }
    await this.deps.totp.disable(principal.id);
  }

  /** The user's own password change; every other session of the user ends, this one stays. */
  async changePassword(req: Request, principal: Principal, body: PasswordChangeRequest): Promise<void> {
    const user = await this.currentPassword(req, principal, body.currentPassword);
    await this.deps.users.setPassword(user.id, body.newPassword, req.sessionID);
    this.deps.passwordChanged(user);
  }

  /** The user's own language: what the desktop, their logs and mails are written in. */
  async setLanguage(principal: Principal, language: Language): Promise<void> {
    await this.deps.users.setLanguage(principal.id, language);
  }

  private async userInfo(req: Request, user: UserRow): Promise<UserInfo> {
    const principal = await this.deps.users.principal(user.id);
    return {
      id: user.id,
      username: user.username,
      displayName: user.displayName,
      admin: principal?.admin ?? user.admin,
      totpEnabled: await this.deps.totp.enabled(user.id),
      language: user.language,
      csrfToken: csrfTokenOf(req),
    };
  }
}
