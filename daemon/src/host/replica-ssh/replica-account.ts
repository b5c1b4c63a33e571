import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandRunner } from '../command-runner.ts';

/** The target's account that pairing keys sign in as, and its home (which holds authorized_keys only). */
export interface ReplicaAccountOptions {
  name: string;
  home: string;
}

export const defaultReplicaAccount: ReplicaAccountOptions = { name: 'cellar-replica', home: '/var/lib/cellar-replica' };

/** One line of authorized_keys: the key may run only `command`, with every sshd option off (`restrict`). */
export interface AuthorizedKey {
  /** The forced command, whose words sshd hands to the account's shell. */
  command: readonly string[];
  key: string;
  comment: string;
}

// sshd runs the forced command through the account's shell: every word must be free of its characters.
const shellSafe = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function authorizedKeysLine(entry: AuthorizedKey): string {
  for (const word of entry.command) if (!shellSafe.test(word)) throw new Error(`the forced command holds a word the shell would read: ${JSON.stringify(word)}`);
  return `restrict,command="${entry.command.join(' ')}" ${entry.key} ${entry.comment}`;
}

/**
 * The system account `cellar-replica` on the target: a system user with its own group and no
 * password ("*", which sshd does not treat as locked), whose login shell is /bin/sh because sshd
 * starts a forced command through it. Its home and .ssh belong to root (0755) and authorized_keys
 * too (0644): sshd accepts that, and the account can never change its own keys. Through the
 * runner, so a development daemon only logs the account's commands (the file is written anyway,
 * below its data directory).
 */
export class ReplicaAccount {
  constructor(
    private readonly runner: CommandRunner,
    readonly options: ReplicaAccountOptions,
  ) {}

  get authorizedKeysPath(): string {
    return path.join(this.options.home, '.ssh', 'authorized_keys');
  }

  /** Makes the account when the first pairing needs it. */
  async ensure(): Promise<void> {
    const { name, home } = this.options;
    const exists = this.runner.apply && (await this.runner.read(['getent', 'passwd', name], { allowFailure: true })).exitCode === 0;
    // prettier-ignore
    if (!exists) await this.runner.run(['useradd', '--system', '--user-group', '--no-create-home', '--home-dir', home, '--shell', '/bin/sh', '--password', '*', '--comment', 'Cellar replication', name]);
    await mkdir(path.join(home, '.ssh'), { recursive: true, mode: 0o755 });
    await chmod(home, 0o755);
    await chmod(path.join(home, '.ssh'), 0o755);
  }

  /** Writes the whole file from the pairings, beside it first, so sshd never reads half of it. */
  async writeAuthorizedKeys(entries: readonly AuthorizedKey[]): Promise<void> {
    await this.ensure();
    const text = entries.map((e) => `${authorizedKeysLine(e)}\n`).join('');
    const file = this.authorizedKeysPath;
    await writeFile(`${file}.new`, text, { mode: 0o644 });
    await rename(`${file}.new`, file);
  }
}
