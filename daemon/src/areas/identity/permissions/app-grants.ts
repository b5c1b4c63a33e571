import type { Sequelize } from 'sequelize';
import type { AppGrants } from '../../../../../shared/src/api/apps/apps.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import type { IdentityEvents } from '../users/host-effects.ts';
import type { GroupModels } from '../users/group.model.ts';
import type { UserRow } from '../users/user.model.ts';
import type { GrantModels } from './grant.model.ts';
import type { Rights } from './rights.ts';

export interface AppGrantsDeps {
  db: Sequelize;
  users: typeof UserRow;
  groups: GroupModels;
  grants: GrantModels;
  rights: Rights;
  events: IdentityEvents;
  /** Tells desktops to read their apps again, without touching accounts or file services. */
  pushToDesktops(userIds: 'all'): void;
}

/**
 * Who may use an installed app: the grants of one right (`app:<id>`, level allow) to users and
 * groups, in the same tables as every other right, so the desktop and the permission editors
 * read one truth. The built-in group users stands for everybody; no grant, administrators only.
 */
export class AppGrantsStore {
  constructor(private readonly deps: AppGrantsDeps) {}

  async subjects(right: string): Promise<{ users: number[]; groups: number[] }> {
    const users = await this.deps.grants.userGrants.findAll({ where: { right }, order: [['userId', 'ASC']] });
    const groups = await this.deps.grants.groupGrants.findAll({ where: { right }, order: [['groupId', 'ASC']] });
    return { users: users.map((g) => g.userId), groups: groups.map((g) => g.groupId) };
  }

  async replace(right: string, users: readonly number[], groups: readonly number[]): Promise<void> {
    await this.deps.db.transaction(async (transaction) => {
      const foundUsers = await this.deps.users.findAll({ where: { id: [...users] }, attributes: ['id'], transaction });
      const missingUser = users.find((id) => !foundUsers.some((u) => u.id === id));
      if (missingUser !== undefined) throw new ProblemError('fs.grant.subject_not_found', { subjectType: 'user', subjectId: missingUser });
      const foundGroups = await this.deps.groups.groups.findAll({ where: { id: [...groups] }, attributes: ['id'], transaction });
      const missingGroup = groups.find((id) => !foundGroups.some((g) => g.id === id));
      if (missingGroup !== undefined) throw new ProblemError('fs.grant.subject_not_found', { subjectType: 'group', subjectId: missingGroup });
      await this.deps.grants.userGrants.destroy({ where: { right }, transaction });
      await this.deps.grants.groupGrants.destroy({ where: { right }, transaction });
      await this.deps.grants.userGrants.bulkCreate(
        users.map((userId) => ({ userId, right })),
        { transaction },
      );
      await this.deps.grants.groupGrants.bulkCreate(
        groups.map((groupId) => ({ groupId, right })),
        { transaction },
      );
    });
    // Start menus and open windows of everyone affected follow at once.
    this.deps.events.rightsChanged('all');
  }

  /** Grants the right to the built-in group users: everybody. */
  async grantEverybody(right: string): Promise<void> {
    const builtIn = await this.deps.groups.groups.findOne({ where: { builtIn: true } });
    if (builtIn) await this.replace(right, [], [builtIn.id]);
  }

  async removeAll(right: string): Promise<void> {
    await this.deps.grants.userGrants.destroy({ where: { right } });
    await this.deps.grants.groupGrants.destroy({ where: { right } });
    this.deps.events.rightsChanged('all');
  }

  /** Every user and whether they may use the app: administrators always, others by their own or a group's grant. */
  async result(right: string): Promise<AppGrants['result']> {
    const users = await this.deps.users.findAll({ order: [['username', 'ASC']] });
    const out: AppGrants['result'] = [];
    for (const user of users) {
      const grants = await this.deps.rights.ofUser(user);
      const via = grants.admin ? 'admin' : grants.own.includes(right) && user.active ? 'user' : grants.effective.includes(right) ? 'group' : null;
      out.push({ userId: user.id, username: user.username, allowed: via !== null, via });
    }
    return out;
  }

  /** An app came, went, or was switched on or off: every start menu reads its apps again. */
  touched(): void {
    this.deps.pushToDesktops('all');
  }

  /** Whether a user may use the app now (administrators may use every app). */
  async allowed(userId: number, right: string): Promise<boolean> {
    const rights = await this.deps.rights.effective(userId);
    return rights !== null && (rights.admin || rights.rights.includes(right));
  }
}
