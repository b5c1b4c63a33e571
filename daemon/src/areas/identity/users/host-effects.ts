import type { Transaction } from 'sequelize';
import { specialRights } from '../../../../../shared/src/api/identity/permissions.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import { protocolGroups, type SystemAccounts } from '../../../host/accounts.ts';
import { CommandError } from '../../../host/command-runner.ts';
import type { UserRights } from './user-rights.ts';

/**
 * Runs host commands inside a database transaction: a failed command becomes
 * users.account.host_failed naming it, which rolls the transaction back.
 */
export async function onHost(effects: () => Promise<void>): Promise<void> {
  try {
    await effects();
  } catch (err) {
    if (err instanceof CommandError)
      throw new ProblemError('users.account.host_failed', { command: err.argv.join(' '), exitCode: err.result.exitCode }, { cause: err });
    throw err;
  }
}

/** Sets the members of the SMB and SFTP groups to the users who hold those rights after the change. */
export async function syncProtocolGroups(accounts: SystemAccounts, rights: Pick<UserRights, 'holders'>, transaction: Transaction): Promise<void> {
  await accounts.setGroupMembers(protocolGroups.smb, await rights.holders(specialRights.smb, transaction));
  await accounts.setGroupMembers(protocolGroups.sftp, await rights.holders(specialRights.sftp, transaction));
}

/** Who hears that a user's rights changed: the grants topic and the topics hub's re-check. */
export interface IdentityEvents {
  rightsChanged(userIds: readonly number[] | 'all'): void;
}

/** Names the system has or the box uses itself; useradd/groupadd would clash with them. */
export const reservedNames = new Set([
  'root',
  'daemon',
  'bin',
  'sys',
  'sync',
  'games',
  'man',
  'lp',
  'mail',
  'news',
  'uucp',
  'proxy',
  'www-data',
  'backup',
  'list',
  'irc',
  'gnats',
  'nobody',
  'nogroup',
  '_apt',
  'systemd-network',
  'systemd-resolve',
  'systemd-timesync',
  'messagebus',
  'sshd',
  'avahi',
  'nginx',
  'users',
  'adm',
  'sudo',
  'staff',
  'wheel',
  'shadow',
  'disk',
  'tty',
  'kmem',
  'operator',
  'cellar',
  protocolGroups.smb,
  protocolGroups.sftp,
]);
