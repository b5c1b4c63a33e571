import type { Language } from '../../../../shared/src/api/system/system.ts';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { coreApps } from '../../../../shared/src/apps.ts';
import { systemClock, type Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TopicsHub } from '../../core/topics/topics-hub.ts';
import { AccountSecrets } from '../../host/account-secrets.ts';
import { SystemAccounts } from '../../host/accounts.ts';
import { CommandRunner } from '../../host/command-runner.ts';
import { api } from '../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea } from '../area.ts';
import type { BackupHostOptions } from '../backup-part.ts';
import { authHandlers } from './auth/auth.routes.ts';
import { AuthService } from './auth/auth.service.ts';
import { DeviceCookies } from './auth/device-cookie.ts';
import type { SqliteSessionStore } from './auth/session-store.ts';
import { LoginThrottle, type ThrottlePolicy } from './auth/throttle.ts';
import { TotpCipher } from './auth/totp-cipher.ts';
import { initAuthModels } from './auth/totp.model.ts';
import { TotpService } from './auth/totp.service.ts';
import { AppGrantsStore } from './permissions/app-grants.ts';
import type { CatalogApp } from './permissions/catalog.ts';
import { initGrantModels } from './permissions/grant.model.ts';
import { permissionsBackupPart } from './permissions/permissions.backup.ts';
import { GrantsTopic } from './permissions/grants.topics.ts';
import { permissionsHandlers } from './permissions/permissions.routes.ts';
import { PermissionsService } from './permissions/permissions.service.ts';
import { Rights } from './permissions/rights.ts';
import { initGroupModels } from './users/group.model.ts';
import { groupsBackupPart } from './users/groups.backup.ts';
import { groupsHandlers } from './users/groups.routes.ts';
import { GroupsService } from './users/groups.service.ts';
import { ensureInitialAdmin, forgetInitialAdminPassword } from './users/initial-admin.ts';
import type { UserRow } from './users/user.model.ts';
import { usersBackupPart } from './users/users.backup.ts';
import { usersHandlers } from './users/users.routes.ts';
import { UsersService, type UserHomes } from './users/users.service.ts';

export interface IdentityOptions {
  db: Sequelize;
  logger: Logger;
  userRows: typeof UserRow;
  sessionStore: SqliteSessionStore;
  topics: TopicsHub;
  dataDir: string;
  /** Whether system accounts are really made (box) or only logged (development). */
  applyAccounts: boolean;
  /** smb.conf whose passdb takes the SMB passwords (a test's private one); null for Samba's default. */
  smbConf?: string | null;
  /** development: create `admin` on the first start with this password (null: a random one). */
  initialAdmin: { password: string | null } | null;
  throttle?: ThrottlePolicy;
  /** The time sign-in locks and device cookies are measured by (the system's by default). */
  clock?: Clock;
  /** Apps of the permission catalog; the core app registry until installed apps exist. */
  apps?: () => readonly CatalogApp[];
  /** Called after users, groups or rights change (file services re-apply Samba, SFTP and ACLs). */
  accountsChanged?: () => void;
  /** Users' homes on the home pool: the storage area's, once built (after identity); null before. */
  homes?: () => HomesOfUsers | null;
  /** Called after a user was deleted, for what other areas keep per user. */
  userDeleted?: (userId: number) => Promise<void>;
  /** The language of a user created without one: the box's (System, Region). */
  defaultLanguage?: () => Promise<Language>;
  /** How a restore of users, groups and permissions reaches the host (accounts, Samba's passdb); by default as applyAccounts and smbConf say. */
  backupHost?: Pick<BackupHostOptions, 'applyHost' | 'smbConf'>;
}

/** What identity asks of the storage area's homes (HomesService). */
export type HomesOfUsers = Pick<UserHomes, 'paths' | 'check' | 'dispose'> & { create: UserHomes['created'] };

/**
 * Users' homes through the storage area, which is built after identity: before it there are none,
 * and a deletion asking to move or destroy a home is refused, not silently done without one.
 */
function lateHomes(homes: () => HomesOfUsers | null): UserHomes {
  return {
    paths: async () => (await homes()?.paths()) ?? new Map(),
    created: async (user) => homes()?.create(user),
    check: async (user, home, shareId) => {
      const area = homes();
      if (!area && home !== undefined && home !== 'keep') throw new ProblemError('users.home.unavailable', { home });
      await area?.check(user, home, shareId);
    },
    dispose: async (user, home, shareId, actorId) => (await homes()?.dispose(user, home, shareId, actorId)) ?? { keptHome: null, job: null },
  };
}

export const coreCatalogApps = (): CatalogApp[] => coreApps.map((app) => ({ id: app.id, title: app.title.en }));

/** Builds the identity areas (auth, users, groups, permissions) in dependency order. */
export async function createIdentityArea(o: IdentityOptions) {
  const groupModels = initGroupModels(o.db);
  const grantModels = initGrantModels(o.db);
  const authModels = initAuthModels(o.db);
  const clock = o.clock ?? systemClock;
  const rights = new Rights({ db: o.db, users: o.userRows, groups: groupModels, grants: grantModels });
  const accounts = new SystemAccounts(new CommandRunner(o.logger, o.applyAccounts), { smbConf: o.smbConf ?? null });
  const grantsTopic = new GrantsTopic({
    rights,
    publisher: o.topics,
    recheck: async (ids) => (ids === 'all' ? o.topics.recheckAll() : Promise.all(ids.map((id) => o.topics.recheckUser(id))).then(() => undefined)),
    allUserIds: async () => (await o.userRows.findAll({ attributes: ['id'] })).map((u) => u.id),
    logger: o.logger,
  });
  // The key lives beside the database, not in it: a copy of cellar.sqlite alone reveals no TOTP secret.
  const totp = new TotpService({ db: o.db, models: authModels, logger: o.logger, cipher: TotpCipher.fromKeyFile(path.join(o.dataDir, 'totp-key')) });
  // Plain secrets of an older database are sealed here, at every start and idempotently (see sealPlainSecrets).
  await totp.sealPlainSecrets();
  const events = {
    rightsChanged: (ids: readonly number[] | 'all') => {
      grantsTopic.rightsChanged(ids);
      o.accountsChanged?.();
    },
  };
  const common = { db: o.db, users: o.userRows, rights, accounts, events, logger: o.logger };
  const users = new UsersService({
    ...common,
    groups: groupModels,
    sessions: o.sessionStore,
    totp,
    homes: o.homes && lateHomes(o.homes),
    deleted: o.userDeleted,
    defaultLanguage: o.defaultLanguage,
  });
  const groups = new GroupsService({ ...common, groups: groupModels });
  const permissions = new PermissionsService({ ...common, groups, apps: o.apps ?? coreCatalogApps });
  const auth = new AuthService({
    users,
    totp,
    throttle: new LoginThrottle(o.db, o.throttle, () => clock.now()),
    // Its own key beside the session secret: device cookies outlive sessions and are checked apart from them.
    devices: DeviceCookies.fromKeyFile(path.join(o.dataDir, 'device-key'), () => clock.now()),
    logger: o.logger,
    passwordChanged: (user) => forgetInitialAdminPassword(o.dataDir, user.username),
  });
  const backupParts = identityBackupParts(o, (right) => rights.holders(right));
  if (o.initialAdmin) await ensureInitialAdmin(o.db, users, o.dataDir, o.initialAdmin.password, o.logger);
  return defineArea({
    name: 'identity',
    topics: [grantsTopic],
    routes: [
      tableRoutes(api.auth, authHandlers(auth)),
      tableRoutes(api.users, usersHandlers(users)),
      tableRoutes(api.groups, groupsHandlers(groups)),
      tableRoutes(api.permissions, permissionsHandlers(permissions)),
    ],
    backupPart: backupParts,
    users,
    groups,
    permissions,
    auth,
    /** Who may use installed apps: the `app:<id>` grants. */
    appGrants: new AppGrantsStore({
      db: o.db,
      users: o.userRows,
      groups: groupModels,
      grants: grantModels,
      rights,
      events,
      pushToDesktops: (ids) => grantsTopic.rightsChanged(ids),
    }),
    /** Who holds a right (the SMB and SFTP rights for the file services). */
    rightHolders: (right: string) => rights.holders(right),
    /** On a box: the SMB and SFTP groups exist before any user is put into them. */
    start: () => (o.applyAccounts ? accounts.ensureProtocolGroups() : Promise.resolve()),
  });
}

/** The users, groups and permissions parts of a backup, with the accounts they restore on the host. */
function identityBackupParts(o: IdentityOptions, rightHolders: (right: string) => Promise<string[]>) {
  const host = o.backupHost ?? { applyHost: o.applyAccounts, smbConf: o.smbConf ?? null };
  const runner = new CommandRunner(o.logger, host.applyHost);
  const accounts = new SystemAccounts(runner, { smbConf: host.smbConf });
  return [
    usersBackupPart({
      db: o.db,
      // The same key file the auth area seals with: secrets leave opened and come back sealed.
      cipher: TotpCipher.fromKeyFile(path.join(o.dataDir, 'totp-key')),
      secrets: new AccountSecrets(runner, { smbConf: host.smbConf }),
      accounts,
    }),
    groupsBackupPart({ db: o.db, accounts }),
    permissionsBackupPart({ db: o.db, accounts, rightHolders }),
  ];
}
