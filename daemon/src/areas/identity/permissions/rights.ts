import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { specialRights, type EffectiveRights, type UserGrants } from '../../../../../shared/src/api/identity/permissions.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import type { GroupModels } from '../users/group.model.ts';
import type { UserRow } from '../users/user.model.ts';
import type { UserRights } from '../users/user-rights.ts';
import type { GrantModels } from './grant.model.ts';

export interface RightsDeps {
  db: Sequelize;
  users: typeof UserRow;
  groups: GroupModels;
  grants: GrantModels;
}

const activeAdminsSql = `
SELECT u.id FROM users u WHERE u.active = 1 AND (u.admin = 1 OR EXISTS (
  SELECT 1 FROM group_grants gg JOIN groups g ON g.id = gg.group_id
  WHERE gg.right = $admin AND (g.built_in = 1 OR EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = g.id AND m.user_id = u.id))))`;

/**
 * Who holds what: a user's own grants (the admin flag is the own `system.admin`),
 * the grants of the user's groups (the built-in group users counts for everybody), and
 * their union. Every rule that changes identity data checks `assertAdminLeft` inside its
 * transaction, so no path can leave the box without an active administrator.
 * Values reach SQLite only as bound parameters: Sequelize writes replacements into the SQL text,
 * where a NUL ends the statement.
 */
export class Rights implements UserRights {
  constructor(private readonly deps: RightsDeps) {}

  async own(user: UserRow, transaction?: Transaction): Promise<string[]> {
    const rows = await this.deps.grants.userGrants.findAll({ where: { userId: user.id }, transaction });
    return [...(user.admin ? [specialRights.admin] : []), ...rows.map((r) => r.right)].sort();
  }

  async groupsOf(userId: number, transaction?: Transaction): Promise<UserGrants['groups']> {
    const { groups, members } = this.deps.groups;
    const memberOf = (await members.findAll({ where: { userId }, transaction })).map((m) => m.groupId);
    const rows = await groups.findAll({
      transaction,
      order: [
        ['builtIn', 'DESC'],
        ['name', 'ASC'],
      ],
    });
    const mine = rows.filter((g) => g.builtIn || memberOf.includes(g.id));
    const grants = await this.deps.grants.groupGrants.findAll({ where: { groupId: mine.map((g) => g.id) }, transaction });
    return mine.map((g) => ({
      groupId: g.id,
      name: g.name,
      rights: grants
        .filter((x) => x.groupId === g.id)
        .map((x) => x.right)
        .sort(),
    }));
  }

  /** Own, group and effective grants of a user; a deactivated user holds nothing. */
  async ofUser(user: UserRow, transaction?: Transaction): Promise<UserGrants> {
    const own = await this.own(user, transaction);
    const groups = await this.groupsOf(user.id, transaction);
    const all = user.active ? [...new Set([...own, ...groups.flatMap((g) => g.rights)])].sort() : [];
    return { userId: user.id, own, groups, effective: all, admin: all.includes(specialRights.admin) };
  }

  async effective(userId: number, transaction?: Transaction): Promise<EffectiveRights | null> {
    const user = await this.deps.users.findByPk(userId, { transaction });
    if (!user || !user.active) return null;
    const grants = await this.ofUser(user, transaction);
    return { admin: grants.admin, rights: grants.effective };
  }

  async activeAdminIds(transaction?: Transaction): Promise<number[]> {
    const rows = await this.deps.db.query<{ id: number }>(activeAdminsSql, {
      bind: { admin: specialRights.admin },
      type: QueryTypes.SELECT,
      transaction,
    });
    return rows.map((r) => r.id);
  }

  /** Called inside a change's transaction, after the change: throws (and so rolls back) when no active administrator is left. */
  async assertAdminLeft(transaction: Transaction): Promise<void> {
    if ((await this.activeAdminIds(transaction)).length === 0) throw new ProblemError('users.admin.last');
  }

  /** Turns one own grant of a user on or off (the SMB and SFTP flags of a user). */
  async setOwn(userId: number, right: string, on: boolean, transaction: Transaction): Promise<void> {
    if (on) await this.deps.grants.userGrants.findOrCreate({ where: { userId, right }, transaction });
    else await this.deps.grants.userGrants.destroy({ where: { userId, right }, transaction });
  }

  async hasOwn(userId: number, right: string, transaction?: Transaction): Promise<boolean> {
    return (await this.deps.grants.userGrants.count({ where: { userId, right }, transaction })) > 0;
  }

  /** Replaces a user's own grants (system.admin is the users.admin column, set by the caller). */
  async replaceOwn(userId: number, rights: readonly string[], transaction: Transaction): Promise<void> {
    await this.deps.grants.userGrants.destroy({ where: { userId }, transaction });
    await this.deps.grants.userGrants.bulkCreate(
      rights.filter((r) => r !== specialRights.admin).map((right) => ({ userId, right })),
      { transaction },
    );
  }

  async ofGroup(groupId: number, transaction?: Transaction): Promise<string[]> {
    return (await this.deps.grants.groupGrants.findAll({ where: { groupId }, transaction })).map((r) => r.right).sort();
  }

  async replaceOfGroup(groupId: number, rights: readonly string[], transaction: Transaction): Promise<void> {
    await this.deps.grants.groupGrants.destroy({ where: { groupId }, transaction });
    await this.deps.grants.groupGrants.bulkCreate(
      rights.map((right) => ({ groupId, right })),
      { transaction },
    );
  }

  /** Usernames holding a right now (active users only): the members of the SMB and SFTP host groups. */
  async holders(right: string, transaction?: Transaction): Promise<string[]> {
    const rows = await this.deps.db.query<{ username: string }>(
      `SELECT u.username FROM users u WHERE u.active = 1 AND (
         EXISTS (SELECT 1 FROM user_grants ug WHERE ug.user_id = u.id AND ug.right = $right)
         OR EXISTS (SELECT 1 FROM group_grants gg JOIN groups g ON g.id = gg.group_id WHERE gg.right = $right
           AND (g.built_in = 1 OR EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = g.id AND m.user_id = u.id))))
       ORDER BY u.username`,
      { bind: { right }, type: QueryTypes.SELECT, transaction },
    );
    return rows.map((r) => r.username);
  }
}
