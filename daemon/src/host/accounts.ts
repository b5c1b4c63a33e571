import { CommandError, type CommandRunner } from './command-runner.ts';

/** Groups whose membership gives the SMB and SFTP rights; the Samba and sshd configurations name them. */
export const protocolGroups = { smb: 'cellar-smb', sftp: 'cellar-sftp' } as const;

export const nologinShell = '/usr/sbin/nologin';
/** Debian's group of every user; each account's primary group. */
export const usersGroup = 'users';

export interface NewAccount {
  username: string;
  uid: number;
  displayName: string;
  password: string;
  active: boolean;
}

export interface AccountsOptions {
  /** smb.conf whose passdb the SMB passwords go to; null uses Samba's default. */
  smbConf?: string | null;
}

/**
 * The system accounts of users and groups, as argument arrays through the CommandRunner
 * (which logs instead of running in development mode). Passwords travel on stdin only.
 * Every method throws CommandError naming the failed command.
 */
export class SystemAccounts {
  constructor(
    private readonly runner: CommandRunner,
    private readonly options: AccountsOptions = {},
  ) {}

  private smbpasswd(...args: string[]): string[] {
    return ['smbpasswd', ...(this.options.smbConf ? ['-c', this.options.smbConf] : []), ...args];
  }

  /** Whether a name is taken on the host; only asked on a box, where accounts are real. */
  async userExists(username: string): Promise<boolean> {
    if (!this.runner.apply) return false;
    return (await this.runner.read(['getent', 'passwd', username], { allowFailure: true })).exitCode === 0;
  }

  async groupExists(name: string): Promise<boolean> {
    if (!this.runner.apply) return false;
    return (await this.runner.read(['getent', 'group', name], { allowFailure: true })).exitCode === 0;
  }

  /** The uid of a host account, or null when there is none (always in development mode, where none are real). */
  async userId(username: string): Promise<number | null> {
    return this.idOf('passwd', username);
  }

  /** The gid of a host group, or null when there is none (always in development mode). */
  async groupId(name: string): Promise<number | null> {
    return this.idOf('group', name);
  }

  private async idOf(database: 'passwd' | 'group', name: string): Promise<number | null> {
    if (!this.runner.apply) return null;
    const r = await this.runner.read(['getent', database, name], { allowFailure: true });
    const id = Number(r.stdout.split(':')[2]);
    return r.exitCode === 0 && Number.isSafeInteger(id) ? id : null;
  }

  /** The SMB and SFTP groups, made once at start (groupadd -f succeeds when they exist). */
  async ensureProtocolGroups(): Promise<void> {
    for (const name of Object.values(protocolGroups)) await this.runner.run(['groupadd', '--force', '--system', name]);
  }

  /** useradd, then the passwords; a failure after useradd removes the half-made account again. */
  async createUser(account: NewAccount): Promise<void> {
    await this.runner.run(useraddCommand(account.uid, account.username, account.displayName));
    try {
      await this.setPassword(account.username, account.password);
      if (!account.active) await this.setActive(account.username, false);
    } catch (err) {
      await this.runner.run(this.smbpasswd('-x', account.username), { allowFailure: true }).catch(() => undefined);
      await this.runner.run(['userdel', account.username], { allowFailure: true }).catch(() => undefined);
      throw err;
    }
  }

  /** Same password for the system account (PAM, SFTP) and for SMB. */
  async setPassword(username: string, password: string): Promise<void> {
    await this.runner.run(['chpasswd'], { input: `${username}:${password}\n` });
    await this.runner.run(this.smbpasswd('-s', '-a', username), { input: `${password}\n${password}\n` });
  }

  async setDisplayName(username: string, displayName: string): Promise<void> {
    await this.runner.run(['usermod', '--comment', commentOf(displayName), username]);
  }

  /** Deactivation expires the account (day 1 of 1970) and disables its SMB entry; activation undoes both. */
  async setActive(username: string, active: boolean): Promise<void> {
    await this.runner.run(['usermod', '--expiredate', active ? '' : '1', username]);
    await this.runner.run(this.smbpasswd(active ? '-e' : '-d', username));
  }

  async deleteUser(username: string): Promise<void> {
    // An SMB entry may be missing (created before Samba was set up): that is no failure.
    await this.runner.run(this.smbpasswd('-x', username), { allowFailure: true });
    await this.runner.run(['userdel', username]);
  }

  async createGroup(name: string, gid: number): Promise<void> {
    await this.runner.run(['groupadd', '--gid', String(gid), name]);
  }

  async renameGroup(oldName: string, newName: string): Promise<void> {
    await this.runner.run(['groupmod', '--new-name', newName, oldName]);
  }

  async setGroupId(name: string, gid: number): Promise<void> {
    await this.runner.run(['groupmod', '--gid', String(gid), name]);
  }

  /** Groups the host has, with their gids (empty in development mode, where none are real). */
  async groups(): Promise<Map<string, number>> {
    if (!this.runner.apply) return new Map();
    const out = (await this.runner.read(['getent', 'group'])).stdout;
    return new Map(
      out.split('\n').flatMap((line) => {
        const [name, , gid] = line.split(':');
        return name && gid ? [[name, Number(gid)] as const] : [];
      }),
    );
  }

  async deleteGroup(name: string): Promise<void> {
    await this.runner.run(['groupdel', name]);
  }

  /** Sets the full member list of a group in one command (gpasswd -M), so it never drifts. */
  async setGroupMembers(name: string, usernames: readonly string[]): Promise<void> {
    await this.runner.run(['gpasswd', '--members', [...usernames].sort().join(','), name]);
  }
}

/** The GECOS field takes no ':' , ',' or newline. */
/** The useradd of a box account: no home, no shell, in the users group, under its own uid (new or restored). */
export function useraddCommand(uid: number, username: string, displayName: string): string[] {
  // prettier-ignore
  return ['useradd', '--uid', String(uid), '--gid', usersGroup, '--no-user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', nologinShell, '--comment', commentOf(displayName), username];
}

export function commentOf(displayName: string): string {
  return displayName.replace(/[:,\n\r]/g, ' ').slice(0, 128);
}

export function isCommandError(err: unknown): err is CommandError {
  return err instanceof CommandError;
}
