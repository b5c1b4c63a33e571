import type { Sequelize } from 'sequelize';
import { specialRights, type GroupGrants, type PermissionCatalog, type UserGrants } from '../../../../../shared/src/api/identity/permissions.ts';
import type { Logger } from '../../../core/logger.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import type { SystemAccounts } from '../../../host/accounts.ts';
import { onHost, syncProtocolGroups, type IdentityEvents } from '../users/host-effects.ts';
import type { GroupsService } from '../users/groups.service.ts';
import type { UserRow } from '../users/user.model.ts';
import { permissionCatalog, type CatalogApp } from './catalog.ts';
import type { Rights } from './rights.ts';

export interface PermissionsDeps {
  db: Sequelize;
  users: typeof UserRow;
  groups: GroupsService;
  rights: Rights;
  accounts: SystemAccounts;
  /** Every app (core and installed) as the catalog lists it. */
  apps: () => readonly CatalogApp[];
  events: IdentityEvents;
  logger: Logger;
}

/** Grants of users and groups against the permission catalog (spec 4.7). */
export class PermissionsService {
  constructor(private readonly deps: PermissionsDeps) {}

  catalog(): PermissionCatalog {
    return { rights: permissionCatalog(this.deps.apps()) };
  }

  private assertKnown(rights: readonly string[]): void {
    const known = new Set(this.catalog().rights.map((r) => r.id));
    const unknown = rights.filter((r) => !known.has(r));
    if (unknown.length) throw new ProblemError('permissions.right.unknown', { rights: unknown });
  }

  async groupGrants(groupId: number): Promise<GroupGrants> {
    await this.deps.groups.get(groupId);
    return { groupId, rights: await this.deps.rights.ofGroup(groupId) };
  }

  async setGroupGrants(groupId: number, rights: readonly string[]): Promise<GroupGrants> {
    const group = await this.deps.groups.get(groupId);
    this.assertKnown(rights);
    await this.deps.db.transaction(async (transaction) => {
      await this.deps.rights.replaceOfGroup(groupId, rights, transaction);
      await this.deps.rights.assertAdminLeft(transaction);
      await onHost(() => syncProtocolGroups(this.deps.accounts, this.deps.rights, transaction));
    });
    this.deps.logger.info('group grants set', { logCode: 'permissions.groupGrantsSet', component: 'permissions', groupId, name: group.name, rights });
    this.deps.events.rightsChanged(group.builtIn ? 'all' : await this.deps.groups.memberIds(group));
    return this.groupGrants(groupId);
  }

  private async user(userId: number): Promise<UserRow> {
    const user = await this.deps.users.findByPk(userId);
    if (!user) throw new ProblemError('users.user.not_found', { userId });
    return user;
  }

  async userGrants(userId: number): Promise<UserGrants> {
    return this.deps.rights.ofUser(await this.user(userId));
  }

  async setUserGrants(userId: number, rights: readonly string[]): Promise<UserGrants> {
    const user = await this.user(userId);
    this.assertKnown(rights);
    await this.deps.db.transaction(async (transaction) => {
      // The own administrator right is the user's admin flag, as PATCH /api/users/{id} sets it.
      await user.update({ admin: rights.includes(specialRights.admin), updatedAt: new Date().toISOString() }, { transaction });
      await this.deps.rights.replaceOwn(userId, rights, transaction);
      await this.deps.rights.assertAdminLeft(transaction);
      await onHost(() => syncProtocolGroups(this.deps.accounts, this.deps.rights, transaction));
    });
    this.deps.logger.info('user grants set', { logCode: 'permissions.userGrantsSet', component: 'permissions', userId, username: user.username, rights });
    this.deps.events.rightsChanged([userId]);
    return this.userGrants(userId);
  }
}
