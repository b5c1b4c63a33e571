import type { Sequelize } from 'sequelize';
import { specialRights } from '../../../../../shared/src/api/identity/permissions.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import { protocolGroups, type SystemAccounts } from '../../../host/accounts.ts';
import type { BackupPart } from '../../backup-part.ts';
import { checkRows, idsOf, readRows, replaceRows, type Row } from '../../backup-rows.ts';

export interface PermissionsBackup {
  userGrants: Row[];
  groupGrants: Row[];
}

/** Grants of special rights and apps to users and groups (the permissions part of a backup). */
export function permissionsBackupPart(deps: {
  db: Sequelize;
  accounts: SystemAccounts;
  rightHolders: (right: string) => Promise<string[]>;
}): BackupPart<PermissionsBackup> {
  const { db } = deps;
  return {
    name: 'permissions',
    // Grants point at users and groups.
    after: ['users', 'groups'],
    async export() {
      return { userGrants: await readRows(db, 'user_grants'), groupGrants: await readRows(db, 'group_grants') };
    },
    async inspect(raw) {
      if (typeof raw !== 'object' || raw === null) throw new ProblemError('backup.part.invalid', { part: 'permissions' }, { detail: 'not an object' });
      const value = raw as Record<string, unknown>;
      const userGrants = await checkRows(db, 'permissions', 'user_grants', value.userGrants);
      const groupGrants = await checkRows(db, 'permissions', 'group_grants', value.groupGrants);
      return { data: { userGrants, groupGrants }, counts: { grants: userGrants.length + groupGrants.length } };
    },
    async restore(data, transaction) {
      // Grants of subjects this box does not have (their part not restored) are left out.
      const users = await idsOf(db, 'users', transaction);
      const groups = await idsOf(db, 'groups', transaction);
      await replaceRows(
        db,
        'user_grants',
        data.userGrants.filter((g) => users.has(Number(g.user_id))),
        transaction,
      );
      await replaceRows(
        db,
        'group_grants',
        data.groupGrants.filter((g) => groups.has(Number(g.group_id))),
        transaction,
      );
    },
    async apply() {
      // The SMB and SFTP rights are memberships of the protocol groups on the host.
      await deps.accounts.setGroupMembers(protocolGroups.smb, await deps.rightHolders(specialRights.smb));
      await deps.accounts.setGroupMembers(protocolGroups.sftp, await deps.rightHolders(specialRights.sftp));
    },
  };
}
