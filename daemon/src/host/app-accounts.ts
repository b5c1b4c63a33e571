import type { CommandRunner } from './command-runner.ts';
import { nologinShell } from './accounts.ts';

/** Apps' own system accounts: uids (and gids of the same number) from 40000 to 49999, never reused. */
export const appUidRange = { first: 40000, last: 49999 } as const;

/** The account's name: short and fixed, since an app id can be longer than a Unix name may be. */
export const appAccountName = (uid: number) => `app${uid}`;

/**
 * Creates and removes the system account of an app: a user and a group of its own, no shell,
 * no home folder of its own (its volume is its world). Through the runner, so a development
 * daemon only logs the commands.
 */
export class AppAccounts {
  constructor(private readonly runner: CommandRunner) {}

  private async exists(database: 'passwd' | 'group', name: string): Promise<boolean> {
    if (!this.runner.apply) return false;
    return (await this.runner.read(['getent', database, name], { allowFailure: true })).exitCode === 0;
  }

  async ensure(uid: number, appId: string, home: string): Promise<void> {
    const name = appAccountName(uid);
    if (!(await this.exists('group', name))) await this.runner.run(['groupadd', '--gid', String(uid), name]);
    if (!(await this.exists('passwd', name)))
      await this.runner.run([
        'useradd',
        '--uid',
        String(uid),
        '--gid',
        String(uid),
        '--no-create-home',
        '--home-dir',
        home,
        '--shell',
        nologinShell,
        '--comment',
        `Cellar app ${appId}`,
        name,
      ]);
  }

  async remove(uid: number): Promise<void> {
    const name = appAccountName(uid);
    if (await this.exists('passwd', name)) await this.runner.run(['userdel', name]);
    if (await this.exists('group', name)) await this.runner.run(['groupdel', name]);
  }
}
