import { QueryTypes, type Sequelize } from 'sequelize';
import { accountName } from '../../../../../shared/src/api/identity/users.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import type { SystemAccounts } from '../../../host/accounts.ts';
import type { BackupPart } from '../../backup-part.ts';
import { checkRows, idsOf, readRows, replaceRows, syncRows, type Row } from '../../backup-rows.ts';
import { assertRestorableName, gidRange } from './restorable-names.ts';

export interface GroupsBackup {
  groups: Row[];
  members: Row[];
}

/**
 * The built-in groups (`users`, which stands for everybody) are the box's, made by its migrations:
 * a backup must hold exactly this box's, by id, name and gid. Without it a restore deleted the group,
 * and every app installed afterwards for everybody was granted to nobody; a made-up one would pass
 * a system group (`sudo`) as built-in, past the checks of names and gids.
 */
async function assertBuiltIns(db: Sequelize, groups: readonly Row[]): Promise<void> {
  const key = (g: Row) => `${String(g.id)}:${String(g.name)}:${String(g.gid)}`;
  const box = await db.query<Row>('SELECT id, name, gid FROM groups WHERE built_in = 1', { type: QueryTypes.SELECT });
  const backup = groups.filter((g) => g.built_in === 1);
  const boxKeys = new Set(box.map(key));
  const backupKeys = new Set(backup.map(key));
  const odd = backup.find((g) => !boxKeys.has(key(g))) ?? box.find((g) => !backupKeys.has(key(g)));
  if (odd) throw new ProblemError('backup.group.built_in', { name: String(odd.name) });
}

/** Groups with their gids and members (the groups part of a backup). */
export function groupsBackupPart(deps: { db: Sequelize; accounts: SystemAccounts }): BackupPart<GroupsBackup> {
  const { db } = deps;
  // Groups the box had before a restore and the backup lacks: their system groups go once the rows committed.
  let removed: string[] = [];
  return {
    name: 'groups',
    // Memberships point at users.
    after: ['users'],
    async export() {
      return { groups: await readRows(db, 'groups'), members: await readRows(db, 'group_members') };
    },
    async inspect(raw) {
      const invalid = (detail: string) => new ProblemError('backup.part.invalid', { part: 'groups' }, { detail });
      if (typeof raw !== 'object' || raw === null) throw invalid('not an object');
      const value = raw as Record<string, unknown>;
      const groups = await checkRows(db, 'groups', 'groups', value.groups);
      await assertBuiltIns(db, groups);
      for (const g of groups) {
        if (accountName().validate(g.name).error) throw invalid(`group name ${String(g.name)} is not an account name`);
        if (g.built_in === 1) continue;
        await assertRestorableName('group', String(g.name), gidRange, (name) => deps.accounts.groupId(name));
        const gid = Number(g.gid);
        if (gid < gidRange.min || gid > gidRange.max) throw invalid(`gid of ${String(g.name)} is out of range`);
      }
      const members = await checkRows(db, 'groups', 'group_members', value.members);
      const ids = new Set(groups.map((g) => g.id));
      if (!members.every((m) => ids.has(m.group_id ?? null))) throw invalid('a member of a group not in the backup');
      return { data: { groups, members }, counts: { groups: groups.filter((g) => g.built_in !== 1).length, memberships: members.length } };
    },
    async restore(data, transaction) {
      const kept = new Set(data.groups.map((g) => g.name));
      removed = (await readRows(db, 'groups', transaction)).map((g) => String(g.name)).filter((name) => !kept.has(name));
      await syncRows(db, 'groups', data.groups, transaction, { key: 'id', temporary: { name: "'~restore~' || id", gid: '-id' } });
      // Memberships of users this box does not have (users not restored) are left out.
      const users = await idsOf(db, 'users', transaction);
      await replaceRows(
        db,
        'group_members',
        data.members.filter((m) => users.has(Number(m.user_id))),
        transaction,
      );
    },
    async apply(data) {
      const wanted = data.groups.filter((g) => g.built_in !== 1);
      const names = new Set(wanted.map((g) => String(g.name)));
      const present = await deps.accounts.groups();
      for (const name of removed) {
        const gid = present.get(name);
        if (gid !== undefined && gid >= gidRange.min && gid <= gidRange.max && !names.has(name)) await deps.accounts.deleteGroup(name);
      }
      const members = await db.query<{ group_id: number; username: string }>(
        'SELECT m.group_id, u.username FROM group_members m JOIN users u ON u.id = m.user_id',
        { type: QueryTypes.SELECT },
      );
      for (const g of wanted) {
        const name = String(g.name);
        if (present.has(name)) {
          if (present.get(name) !== Number(g.gid)) await deps.accounts.setGroupId(name, Number(g.gid));
        } else await deps.accounts.createGroup(name, Number(g.gid));
        await deps.accounts.setGroupMembers(
          name,
          members.filter((m) => m.group_id === g.id).map((m) => m.username),
        );
      }
    },
  };
}
