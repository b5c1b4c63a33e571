import type { Logger } from '../../core/logger.ts';
import { protocolGroups, SystemAccounts } from '../accounts.ts';
import { CommandRunner, type CommandOptions, type CommandResult } from '../command-runner.ts';

/**
 * Runs every command inside the installed system's root (chroot): its own useradd, PAM and Samba,
 * with its own passwd, shadow and passdb. Samba's tools look users up by name in the system they
 * run in, so the host's smbpasswd cannot add an account that only the target has.
 */
export class ChrootRunner extends CommandRunner {
  constructor(
    logger: Logger,
    apply: boolean,
    private readonly root: string,
  ) {
    super(logger, apply);
  }

  override run(argv: readonly string[], options?: CommandOptions): Promise<CommandResult> {
    return super.run(['chroot', this.root, ...argv], options);
  }

  override read(argv: readonly string[], options?: CommandOptions): Promise<CommandResult> {
    return super.read(['chroot', this.root, ...argv], options);
  }
}

export interface TargetOwner {
  username: string;
  uid: number;
  displayName: string;
  password: string;
}

/**
 * The installed box's first administrator as a system account, made the way the box makes every
 * user (host/accounts.ts) but in the target: the uid its database gave, the users group, the SMB
 * and SFTP groups the first-run setup grants, the password for PAM and for Samba's passdb.
 */
export async function writeTargetOwner(runner: CommandRunner, owner: TargetOwner): Promise<void> {
  const accounts = new SystemAccounts(runner);
  await accounts.ensureProtocolGroups();
  await accounts.createUser({ ...owner, active: true });
  await accounts.setGroupMembers(protocolGroups.smb, [owner.username]);
  await accounts.setGroupMembers(protocolGroups.sftp, [owner.username]);
}
