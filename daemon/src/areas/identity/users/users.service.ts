import type { Sequelize, Transaction } from 'sequelize';
import { specialRights } from '../../../../../shared/src/api/identity/permissions.ts';
import type { NewUser, UserDeleteQuery, UserDeletion, UserSummary, UserUpdate } from '../../../../../shared/src/api/identity/users.ts';
import type { Language } from '../../../../../shared/src/api/system/system.ts';
import type { Logger } from '../../../core/logger.ts';
import type { Principal } from '../../../core/principal.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import type { SystemAccounts } from '../../../host/accounts.ts';
import { nextAccountId } from './account-ids.ts';
import type { GroupModels } from './group.model.ts';
import { onHost, reservedNames, syncProtocolGroups, type IdentityEvents } from './host-effects.ts';
import { assertPasswordPolicy } from './password-policy.ts';
import { hashPassword } from './passwords.ts';
import type { UserRow } from './user.model.ts';
import type { UserRights } from './user-rights.ts';

/** The storage area's homes as users need them; absent, homes stay unavailable (keep only). */
export interface UserHomes {
  /** Host paths of the users' homes, by user id (summaries). */
  paths(): Promise<Map<number, string>>;
  /** After a user was created: the home on the home pool, when there is one. */
  created(user: { id: number; username: string; uid: number }): Promise<void>;
  /** Before the user goes: refuses a disposal that cannot be done (no home pool, unknown share). */
  check(user: { id: number; username: string }, home: UserDeleteQuery['home'], shareId: number | undefined): Promise<void>;
  /**
   * After the user went: keeps (renames), destroys or moves the home as a job. On failure it answers
   * users.home.dispose_failed with the state the home was left in (whole, under one name).
   */
  dispose(
    user: { id: number; username: string; uid: number },
    home: NonNullable<UserDeleteQuery['home']>,
    shareId: number | undefined,
    actorId: number,
  ): Promise<Pick<UserDeletion, 'keptHome' | 'job'>>;
}

export interface UsersDeps {
  db: Sequelize;
  users: typeof UserRow;
  groups: GroupModels;
  rights: UserRights;
  accounts: SystemAccounts;
  sessions: { endUserSessions(userId: number, exceptSid?: string): Promise<number> };
  totp: { enabled(userId: number): Promise<boolean>; enabledUserIds(): Promise<Set<number>> };
  events: IdentityEvents;
  logger: Logger;
  homes?: UserHomes;
  /** After a user went: other areas drop what they kept for them (the desktop's wallpaper). Failures are logged only. */
  deleted?: (userId: number) => Promise<void>;
  /** The language of a user created without one (the box's); English without it. */
  defaultLanguage?: () => Promise<Language>;
}

/** Users: the records, their system accounts and the rules of spec 4.6. */
export class UsersService {
  constructor(private readonly deps: UsersDeps) {}

  findByName(username: string): Promise<UserRow | null> {
    return this.deps.users.findOne({ where: { username } });
  }

  findById(id: number): Promise<UserRow | null> {
    return this.deps.users.findByPk(id);
  }

  count(): Promise<number> {
    return this.deps.users.count();
  }

  /** Resolved on every request: rights, administrator and deactivation apply at once. */
  async principal(userId: number): Promise<Omit<Principal, 'sessionId'> | null> {
    const user = await this.deps.users.findByPk(userId);
    if (!user || !user.active) return null;
    const grants = await this.deps.rights.ofUser(user);
    return {
      id: user.id,
      username: user.username,
      displayName: user.displayName,
      language: user.language,
      totpEnabled: await this.deps.totp.enabled(user.id),
      admin: grants.admin,
      rights: new Set(grants.effective),
    };
  }

  async list(): Promise<UserSummary[]> {
    const users = await this.deps.users.findAll({ order: [['username', 'ASC']] });
    return this.summaries(users);
  }

  private async get(userId: number, transaction?: Transaction): Promise<UserRow> {
    const user = await this.deps.users.findByPk(userId, { transaction });
    if (!user) throw new ProblemError('users.user.not_found', { userId });
    return user;
  }

  private async summaries(users: UserRow[], transaction?: Transaction): Promise<UserSummary[]> {
    const ids = users.map((u) => u.id);
    const totp = await this.deps.totp.enabledUserIds();
    const members = await this.deps.groups.members.findAll({ where: { userId: ids }, transaction });
    const homes = (await this.deps.homes?.paths()) ?? new Map<number, string>();
    const out: UserSummary[] = [];
    for (const u of users) {
      const own = await this.deps.rights.own(u, transaction);
      out.push({
        id: u.id,
        username: u.username,
        displayName: u.displayName,
        uid: u.uid,
        admin: u.admin,
        smb: own.includes(specialRights.smb),
        sftp: own.includes(specialRights.sftp),
        active: u.active,
        totpEnabled: totp.has(u.id),
        language: u.language,
        groupIds: members
          .filter((m) => m.userId === u.id)
          .map((m) => m.groupId)
          .sort((a, b) => a - b),
        home: homes.get(u.id) ?? null,
        createdAt: u.createdAt,
      });
    }
    return out;
  }

  private async summary(user: UserRow, transaction?: Transaction): Promise<UserSummary> {
    const [one] = await this.summaries([user], transaction);
    return one!;
  }

  /** The record with the next uid; shared by user creation and the first administrator. */
  async insert(
    fields: { username: string; displayName: string; passwordHash: string; admin: boolean; language: UserRow['language'] },
    transaction: Transaction,
  ): Promise<UserRow> {
    const uid = await nextAccountId(this.deps.groups.accountIds, 'uid', transaction);
    const now = new Date().toISOString();
    return this.deps.users.create({ ...fields, uid, active: true, createdAt: now, updatedAt: now }, { transaction });
  }

  async create(body: NewUser): Promise<UserSummary> {
    assertPasswordPolicy(body.password, body.username);
    if (reservedNames.has(body.username)) throw new ProblemError('users.username.reserved', { username: body.username });
    const passwordHash = await hashPassword(body.password);
    const hostTaken = await this.deps.accounts.userExists(body.username);
    const language = body.language ?? (await this.deps.defaultLanguage?.()) ?? 'en';
    const user = await this.deps.db.transaction(async (transaction) => {
      if (await this.deps.users.findOne({ where: { username: body.username }, transaction }))
        throw new ProblemError('users.username.taken', { username: body.username });
      if (hostTaken) throw new ProblemError('users.username.reserved', { username: body.username });
      const groups = await this.memberGroups(body.groupIds ?? [], transaction);
      const row = await this.insert(
        { username: body.username, displayName: body.displayName ?? '', passwordHash, admin: body.admin ?? false, language },
        transaction,
      );
      if (body.smb) await this.deps.rights.setOwn(row.id, specialRights.smb, true, transaction);
      if (body.sftp) await this.deps.rights.setOwn(row.id, specialRights.sftp, true, transaction);
      await this.deps.groups.members.bulkCreate(
        groups.map((g) => ({ groupId: g.id, userId: row.id })),
        { transaction },
      );
      await onHost(async () => {
        await this.deps.accounts.createUser({ username: row.username, uid: row.uid, displayName: row.displayName, password: body.password, active: true });
        try {
          for (const g of groups) await this.deps.accounts.setGroupMembers(g.name, await this.memberNames(g.id, transaction));
          await syncProtocolGroups(this.deps.accounts, this.deps.rights, transaction);
        } catch (err) {
          await this.deps.accounts.deleteUser(row.username).catch(() => undefined);
          throw err;
        }
      });
      return row;
    });
    this.deps.logger.info('user created', { logCode: 'users.created', component: 'users', userId: user.id, username: user.username, uid: user.uid });
    // A new user may hold rights and share access at once (through the groups every user is in).
    this.deps.events.rightsChanged([user.id]);
    await this.deps.homes?.created({ id: user.id, username: user.username, uid: user.uid }).catch((err: unknown) => {
      this.deps.logger.warn('home not created', {
        logCode: 'users.homeNotCreated',
        component: 'users',
        userId: user.id,
        error: err instanceof Error ? err.message : String(err),
      });
    });
    return this.summary(user);
  }

  private async memberGroups(groupIds: readonly number[], transaction: Transaction) {
    const groups = await this.deps.groups.groups.findAll({ where: { id: [...groupIds], builtIn: false }, transaction });
    const missing = groupIds.filter((id) => !groups.some((g) => g.id === id));
    if (missing.length)
      throw new ProblemError('request.body.invalid', { errors: missing.map((id) => ({ path: 'groupIds', message: `there is no group ${id}` })) });
    return groups;
  }

  async memberNames(groupId: number, transaction: Transaction): Promise<string[]> {
    const rows = await this.deps.groups.members.findAll({ where: { groupId }, transaction });
    const users = await this.deps.users.findAll({ where: { id: rows.map((r) => r.userId) }, transaction });
    return users.map((u) => u.username).sort();
  }

  async update(actor: Principal, userId: number, body: UserUpdate): Promise<UserSummary> {
    const before = await this.get(userId);
    if (body.active === false && userId === actor.id) throw new ProblemError('users.self.deactivate');
    const user = await this.deps.db.transaction(async (transaction) => {
      const row = await this.get(userId, transaction);
      const { accounts, rights } = this.deps;
      const fields: Partial<UserRow> = { updatedAt: new Date().toISOString() };
      if (body.displayName !== undefined) fields.displayName = body.displayName;
      if (body.admin !== undefined) fields.admin = body.admin;
      if (body.active !== undefined) fields.active = body.active;
      if (body.language !== undefined) fields.language = body.language;
      await row.update(fields, { transaction });
      const smbBefore = await rights.hasOwn(userId, specialRights.smb, transaction);
      const sftpBefore = await rights.hasOwn(userId, specialRights.sftp, transaction);
      if (body.smb !== undefined) await rights.setOwn(userId, specialRights.smb, body.smb, transaction);
      if (body.sftp !== undefined) await rights.setOwn(userId, specialRights.sftp, body.sftp, transaction);
      await rights.assertAdminLeft(transaction);
      await onHost(async () => {
        if (body.displayName !== undefined && body.displayName !== before.displayName) await accounts.setDisplayName(row.username, body.displayName);
        if (body.active !== undefined && body.active !== before.active) await accounts.setActive(row.username, body.active);
        const protocolsChanged = (body.smb !== undefined && body.smb !== smbBefore) || (body.sftp !== undefined && body.sftp !== sftpBefore);
        if (protocolsChanged || (body.active !== undefined && body.active !== before.active)) await syncProtocolGroups(accounts, rights, transaction);
      });
      return row;
    });
    if (before.active && !user.active) {
      const ended = await this.deps.sessions.endUserSessions(userId);
      this.deps.logger.info('user deactivated', { logCode: 'users.deactivated', component: 'users', userId, username: user.username, sessionsEnded: ended });
    }
    this.deps.events.rightsChanged([userId]);
    return this.summary(user);
  }

  /**
   * Deletion in this order, so that nothing is left half-done:
   * 1. every check that can fail: the user exists, not oneself, confirm (delete), homes.check (a home to
   *    delete or move, its dataset, the `<name>.deleted-<uid>` name free, the move target share writable);
   * 2. one transaction: the row goes, at least one active administrator must remain, then `userdel`;
   *    a failure of either rolls the row back (the host command is the last step, so nothing to undo);
   * 3. the home, after the user went (its dataset is renamed under the deleted name): a failure here
   *    cannot bring the user back, so the homes service leaves the home whole under one name and the
   *    answer is users.home.dispose_failed saying the user is deleted and where the home is.
   */
  async remove(actor: Principal, userId: number, query: UserDeleteQuery): Promise<UserDeletion> {
    const user = await this.get(userId);
    if (userId === actor.id) throw new ProblemError('users.self.delete');
    const home = query.home ?? 'keep';
    if (home === 'delete' && query.confirm !== user.username) throw new ProblemError('users.confirm.mismatch', { expected: 'the user name' });
    // Homes arrive with the home pool (Storage); until then nothing can be deleted or moved.
    if (!this.deps.homes && home !== 'keep') throw new ProblemError('users.home.unavailable', { home });
    await this.deps.homes?.check(user, home, query.shareId);
    await this.deps.db.transaction(async (transaction) => {
      await this.deps.users.destroy({ where: { id: userId }, transaction });
      await this.deps.rights.assertAdminLeft(transaction);
      // userdel also takes the account out of every group, the SMB and SFTP ones included.
      await onHost(() => this.deps.accounts.deleteUser(user.username));
    });
    this.deps.logger.info('user deleted', { logCode: 'users.deleted', component: 'users', userId, username: user.username, uid: user.uid });
    try {
      await this.deps.deleted?.(userId);
    } catch (err) {
      // The user is gone all the same; what another area kept for them is only logged.
      this.deps.logger.warn('cleanup after user deletion failed', {
        logCode: 'users.cleanupFailed',
        component: 'users',
        userId,
        error: err instanceof Error ? err.message : String(err),
      });
    }
    // The sessions went with the user row (cascade); the re-check closes their sockets.
    this.deps.events.rightsChanged([userId]);
    try {
      const disposed = (await this.deps.homes?.dispose(user, home, query.shareId, actor.id)) ?? { keptHome: null, job: null };
      return { userId, username: user.username, home, ...disposed };
    } catch (err) {
      if (err instanceof ProblemError && err.code === 'users.home.dispose_failed') throw err;
      // A homes adapter that did not say where the home is: the user is gone all the same.
      const cause = err instanceof ProblemError ? err.code : err instanceof Error ? err.message : String(err);
      throw new ProblemError('users.home.dispose_failed', {
        userId,
        username: user.username,
        userDeleted: true,
        home,
        homeState: 'unknown',
        folder: null,
        shareId: null,
        cause,
        causeParams: {},
      });
    }
  }

  /** A user's language, set by the user (personal settings) or an administrator (users.update). */
  async setLanguage(userId: number, language: Language): Promise<void> {
    const user = await this.get(userId);
    await user.update({ language, updatedAt: new Date().toISOString() });
  }

  /** Password reset by an administrator, or the user's own change (which keeps the current session). */
  async setPassword(userId: number, password: string, exceptSessionId?: string): Promise<void> {
    const user = await this.get(userId);
    assertPasswordPolicy(password, user.username);
    const passwordHash = await hashPassword(password);
    await this.deps.db.transaction(async (transaction) => {
      await user.update({ passwordHash, updatedAt: new Date().toISOString() }, { transaction });
      await onHost(() => this.deps.accounts.setPassword(user.username, password));
    });
    const ended = await this.deps.sessions.endUserSessions(userId, exceptSessionId);
    this.deps.logger.info('password set', { logCode: 'users.passwordSet', component: 'users', userId, username: user.username, sessionsEnded: ended });
  }
}
