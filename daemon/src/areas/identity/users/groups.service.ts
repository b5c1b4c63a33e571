import type { Sequelize, Transaction } from 'sequelize';
import type { GroupSummary, GroupUpdate, NewGroup } from '../../../../../shared/src/api/identity/groups.ts';
import type { Logger } from '../../../core/logger.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import type { SystemAccounts } from '../../../host/accounts.ts';
import { nextAccountId } from './account-ids.ts';
import type { GroupModels, GroupRow } from './group.model.ts';
import { onHost, reservedNames, syncProtocolGroups, type IdentityEvents } from './host-effects.ts';
import type { UserRow } from './user.model.ts';
import type { UserRights } from './user-rights.ts';

export interface GroupsDeps {
  db: Sequelize;
  users: typeof UserRow;
  groups: GroupModels;
  rights: UserRights;
  accounts: SystemAccounts;
  events: IdentityEvents;
  logger: Logger;
}

/** Groups: system groups with gids 30000-39999 and members; the built-in group users is every user. */
export class GroupsService {
  constructor(private readonly deps: GroupsDeps) {}

  async list(): Promise<GroupSummary[]> {
    const groups = await this.deps.groups.groups.findAll({
      order: [
        ['builtIn', 'DESC'],
        ['name', 'ASC'],
      ],
    });
    const out: GroupSummary[] = [];
    for (const g of groups) out.push(await this.summary(g));
    return out;
  }

  async get(groupId: number, transaction?: Transaction): Promise<GroupRow> {
    const group = await this.deps.groups.groups.findByPk(groupId, { transaction });
    if (!group) throw new ProblemError('groups.group.not_found', { groupId });
    return group;
  }

  /** Members' user ids; every user for the built-in group. */
  async memberIds(group: GroupRow, transaction?: Transaction): Promise<number[]> {
    if (group.builtIn) return (await this.deps.users.findAll({ attributes: ['id'], transaction })).map((u) => u.id);
    return (await this.deps.groups.members.findAll({ where: { groupId: group.id }, transaction })).map((m) => m.userId);
  }

  private async summary(group: GroupRow, transaction?: Transaction): Promise<GroupSummary> {
    const ids = await this.memberIds(group, transaction);
    const users = await this.deps.users.findAll({ where: { id: ids }, order: [['username', 'ASC']], transaction });
    return {
      id: group.id,
      name: group.name,
      gid: group.gid,
      description: group.description,
      // Built-in groups cannot be changed, so their stored English description is always the default their name stands for.
      descriptionCode: group.builtIn ? group.name : null,
      builtIn: group.builtIn,
      members: users.map((u) => ({ id: u.id, username: u.username })),
    };
  }

  private async assertName(name: string, transaction: Transaction, exceptId?: number): Promise<void> {
    if (reservedNames.has(name)) throw new ProblemError('groups.name.reserved', { name });
    const taken = await this.deps.groups.groups.findOne({ where: { name }, transaction });
    if (taken && taken.id !== exceptId) throw new ProblemError('groups.name.taken', { name });
    if (await this.deps.accounts.groupExists(name)) throw new ProblemError('groups.name.reserved', { name });
  }

  private async members(memberIds: readonly number[], transaction: Transaction): Promise<UserRow[]> {
    const users = await this.deps.users.findAll({ where: { id: [...memberIds] }, transaction });
    const missing = memberIds.filter((id) => !users.some((u) => u.id === id));
    if (missing.length) throw new ProblemError('groups.member.not_found', { userIds: missing });
    return users;
  }

  async create(body: NewGroup): Promise<GroupSummary> {
    const group = await this.deps.db.transaction(async (transaction) => {
      await this.assertName(body.name, transaction);
      const members = await this.members(body.memberIds ?? [], transaction);
      const gid = await nextAccountId(this.deps.groups.accountIds, 'gid', transaction);
      const now = new Date().toISOString();
      const row = await this.deps.groups.groups.create(
        { name: body.name, gid, description: body.description ?? '', builtIn: false, createdAt: now, updatedAt: now },
        { transaction },
      );
      await this.deps.groups.members.bulkCreate(
        members.map((u) => ({ groupId: row.id, userId: u.id })),
        { transaction },
      );
      await onHost(async () => {
        await this.deps.accounts.createGroup(row.name, gid);
        try {
          await this.deps.accounts.setGroupMembers(
            row.name,
            members.map((u) => u.username),
          );
        } catch (err) {
          await this.deps.accounts.deleteGroup(row.name).catch(() => undefined);
          throw err;
        }
      });
      return row;
    });
    this.deps.logger.info('group created', { logCode: 'groups.created', component: 'users', groupId: group.id, name: group.name, gid: group.gid });
    return this.summary(group);
  }

  async update(groupId: number, body: GroupUpdate): Promise<GroupSummary> {
    const before = await this.get(groupId);
    if (before.builtIn) throw new ProblemError('groups.group.built_in');
    const formerMembers = await this.memberIds(before);
    const group = await this.deps.db.transaction(async (transaction) => {
      const row = await this.get(groupId, transaction);
      if (body.name !== undefined && body.name !== row.name) await this.assertName(body.name, transaction, row.id);
      const members = body.memberIds ? await this.members(body.memberIds, transaction) : null;
      await row.update({ name: body.name ?? row.name, description: body.description ?? row.description, updatedAt: new Date().toISOString() }, { transaction });
      if (members) {
        await this.deps.groups.members.destroy({ where: { groupId }, transaction });
        await this.deps.groups.members.bulkCreate(
          members.map((u) => ({ groupId, userId: u.id })),
          { transaction },
        );
        // Members may have been administrators through this group.
        await this.deps.rights.assertAdminLeft(transaction);
      }
      await onHost(async () => {
        if (row.name !== before.name) await this.deps.accounts.renameGroup(before.name, row.name);
        if (members) {
          await this.deps.accounts.setGroupMembers(
            row.name,
            members.map((u) => u.username),
          );
          await syncProtocolGroups(this.deps.accounts, this.deps.rights, transaction);
        }
      });
      return row;
    });
    if (body.memberIds) this.deps.events.rightsChanged([...new Set([...formerMembers, ...body.memberIds])]);
    return this.summary(group);
  }

  async remove(groupId: number): Promise<void> {
    const group = await this.get(groupId);
    if (group.builtIn) throw new ProblemError('groups.group.built_in');
    const formerMembers = await this.memberIds(group);
    await this.deps.db.transaction(async (transaction) => {
      await this.deps.groups.groups.destroy({ where: { id: groupId }, transaction });
      await this.deps.rights.assertAdminLeft(transaction);
      await onHost(async () => {
        // Files keep the gid; the high-water mark keeps it from being given out again.
        await this.deps.accounts.deleteGroup(group.name);
        await syncProtocolGroups(this.deps.accounts, this.deps.rights, transaction);
      });
    });
    this.deps.logger.info('group deleted', { logCode: 'groups.deleted', component: 'users', groupId, name: group.name, gid: group.gid });
    this.deps.events.rightsChanged(formerMembers);
  }
}
