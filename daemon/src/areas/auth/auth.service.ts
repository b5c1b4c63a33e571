import type { Request } from 'express';
import type { LoginRequest, LoginResponse, UserInfo } from '../../../../shared/src/api/auth.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { csrfTokenOf } from '../../http/csrf.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../users/passwords.ts';
import type { UserRow } from '../users/user.model.ts';
import type { UsersService } from '../users/users.service.ts';

export interface AuthDeps {
  users: UsersService;
  logger: Logger;
}

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
}

function destroy(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
}

export class AuthService {
  constructor(private readonly deps: AuthDeps) {}

  /** Same answer and about the same time for an unknown name, a wrong password and a deactivated user. */
  async login(req: Request, body: LoginRequest): Promise<LoginResponse> {
    const user = await this.deps.users.findByName(body.username);
    const ok = await verifyPassword(body.password, user?.passwordHash ?? dummyHash);
    if (!user || !ok || !user.active) {
      this.deps.logger.info('sign-in refused', { component: 'auth', username: body.username });
      throw new ProblemError('auth.credentials.invalid');
    }
    if (needsRehash(user.passwordHash)) await user.update({ passwordHash: await hashPassword(body.password) });
    // A new session id at sign-in, so a session id planted before cannot be ridden.
    await regenerate(req);
    req.session.userId = user.id;
    req.session.signedInAt = Date.now();
    this.deps.logger.info('signed in', { component: 'auth', userId: user.id });
    return { state: 'signedIn', user: this.userInfo(req, user) };
  }

  async logout(req: Request): Promise<void> {
    await destroy(req);
  }

  async session(req: Request, userId: number): Promise<UserInfo> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw new ProblemError('auth.session.required');
    return this.userInfo(req, user);
  }

  private userInfo(req: Request, user: UserRow): UserInfo {
    return {
      id: user.id,
      username: user.username,
      displayName: user.displayName,
      admin: user.admin,
      totpEnabled: false,
      language: user.language,
      csrfToken: csrfTokenOf(req),
    };
  }
}
