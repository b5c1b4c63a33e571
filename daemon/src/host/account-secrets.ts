import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandRunner } from './command-runner.ts';
import { commentOf, useraddCommand } from './accounts.ts';

/** A user's password as the host keeps it: the shadow hash (PAM, SFTP) and Samba's NT hash. Never logged. */
export interface HostSecret {
  username: string;
  shadowHash: string | null;
  ntHash: string | null;
}

export interface RestoredAccount {
  username: string;
  uid: number;
  displayName: string;
  active: boolean;
}

/** Users' system accounts live in this uid range; others on the host are never touched. */
const uidRange = { min: 20000, max: 29999 };

/**
 * Reads and writes users' host password hashes for a configuration backup: the web sign-in's own
 * hash is in the database, but SMB and the system account keep theirs on the host. Hashes never travel
 * as arguments: on standard input (chpasswd -e) or in a root-only file for a moment (pdbedit -i).
 * In development mode (the runner does not apply) there are no accounts: read answers none.
 */
export class AccountSecrets {
  constructor(
    private readonly runner: CommandRunner,
    private readonly options: { smbConf?: string | null } = {},
  ) {}

  private pdbedit(...args: string[]): string[] {
    return ['pdbedit', ...(this.options.smbConf ? ['-s', this.options.smbConf] : []), ...args];
  }

  async read(usernames: readonly string[]): Promise<HostSecret[]> {
    if (!this.runner.apply) return [];
    const shadow = fields((await this.runner.read(['getent', 'shadow'])).stdout);
    const smb = fields((await this.runner.read(this.pdbedit('-L', '-w'), { allowFailure: true })).stdout);
    return usernames.map((username) => {
      const hash = shadow.get(username)?.[1];
      const nt = smb.get(username)?.[3];
      return {
        username,
        // `!` and `*` are no password (locked): nothing to carry over.
        shadowHash: hash && hash.startsWith('$') ? hash : null,
        ntHash: nt && /^[0-9A-F]{32}$/.test(nt) ? nt : null,
      };
    });
  }

  /**
   * Makes the host's accounts those of the backup: the accounts of `removed` (users the box had
   * and the backup lacks) go, the others are created or changed to the backed-up uid, then
   * passwords and SMB entries are set from their hashes. Accounts the box never made stay.
   */
  async restore(accounts: readonly RestoredAccount[], secrets: readonly HostSecret[], removed: readonly string[]): Promise<void> {
    const wanted = new Map(accounts.map((a) => [a.username, a]));
    // In development mode no account is real: every command is only logged, as for a fresh box.
    const present = this.runner.apply ? fields((await this.runner.read(['getent', 'passwd'])).stdout) : new Map<string, string[]>();
    for (const name of removed) {
      const uid = Number(present.get(name)?.[2]);
      if (uid >= uidRange.min && uid <= uidRange.max && !wanted.has(name)) {
        await this.runner.run(this.pdbedit('-x', '-u', name), { allowFailure: true });
        await this.runner.run(['userdel', name]);
      }
    }
    for (const account of accounts) {
      const existing = present.get(account.username);
      if (!existing) await this.runner.run(useraddCommand(account.uid, account.username, account.displayName));
      else if (Number(existing[2]) !== account.uid)
        await this.runner.run(['usermod', '--uid', String(account.uid), '--comment', commentOf(account.displayName), account.username]);
      await this.runner.run(['usermod', '--expiredate', account.active ? '' : '1', account.username]);
    }
    const withShadow = secrets.filter((s) => s.shadowHash && wanted.has(s.username));
    if (withShadow.length > 0) await this.runner.run(['chpasswd', '-e'], { input: withShadow.map((s) => `${s.username}:${s.shadowHash}\n`).join('') });
    const withNt = secrets.filter((s) => s.ntHash && wanted.has(s.username));
    if (withNt.length > 0) {
      // "Last changed" now: Samba reads LCT-00000000 as "must change at next sign-in" and refuses every SMB session.
      const lct = Math.floor(Date.now() / 1000)
        .toString(16)
        .toUpperCase()
        .padStart(8, '0');
      const lines = withNt.map((s) => {
        const account = wanted.get(s.username) as RestoredAccount;
        const flags = (account.active ? 'U' : 'DU').padEnd(11, ' ');
        return `${s.username}:${account.uid}:${'X'.repeat(32)}:${s.ntHash}:[${flags}]:LCT-${lct}:\n`;
      });
      await this.importSmb(lines.join(''));
    }
  }

  /**
   * pdbedit imports only from a file it can read twice (a pipe gives it nothing): the lines go to a
   * 0600 file in a fresh 0700 folder, removed right after.
   */
  private async importSmb(lines: string): Promise<void> {
    const dir = await mkdtemp(path.join(tmpdir(), 'cellar-smbpasswd-'));
    try {
      const file = path.join(dir, 'smbpasswd');
      await writeFile(file, lines, { mode: 0o600 });
      await this.runner.run(this.pdbedit('-i', `smbpasswd:${file}`));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/** Colon-separated lines (passwd, shadow, smbpasswd) by their first field. */
function fields(text: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const parts = line.split(':');
    if (parts[0]) map.set(parts[0], parts);
  }
  return map;
}
