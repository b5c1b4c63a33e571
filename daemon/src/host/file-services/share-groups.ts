import type { CommandRunner } from '../command-runner.ts';

/**
 * A system group per share whose file system refuses POSIX ACLs (zfs-fuse), holding the
 * share's users: the share's folder is root:<group> 2770 and its entries carry the group
 * (groupMode). Named `<prefix><share id>`, so a share renamed keeps its group and the groups of
 * shares that are gone are found by name. System gids, outside the range Cellar's own groups take.
 */
export class ShareGroups {
  constructor(
    private readonly runner: CommandRunner,
    private readonly prefix: string,
  ) {}

  name(shareId: number): string {
    return `${this.prefix}${shareId}`;
  }

  /**
   * Makes the share's group (if needed) hold exactly these users, in one command; answers its gid
   * and the users left out because the host has no account of theirs (gpasswd would refuse them all).
   */
  async ensure(shareId: number, usernames: readonly string[]): Promise<{ gid: number; missing: string[] }> {
    const name = this.name(shareId);
    if (!(await this.all('group')).has(name)) await this.runner.run(['groupadd', '--system', name]);
    const gid = (await this.all('group')).get(name);
    if (gid === undefined) throw new Error(`group ${name} was not made`);
    const accounts = await this.all('passwd');
    const members = usernames.filter((u) => accounts.has(u));
    await this.runner.run(['gpasswd', '--members', [...members].sort().join(','), name]);
    return { gid, missing: usernames.filter((u) => !accounts.has(u)) };
  }

  /** Removes the groups of every share not among `shareIds`; answers the names removed. */
  async removeOthers(shareIds: ReadonlySet<number>): Promise<string[]> {
    if (!this.runner.apply) return [];
    const stale = [...(await this.all('group')).keys()].filter((name) => {
      const id = name.startsWith(this.prefix) ? name.slice(this.prefix.length) : '';
      return /^[0-9]+$/.test(id) && !shareIds.has(Number(id));
    });
    for (const name of stale) await this.runner.run(['groupdel', name]);
    return stale;
  }

  /** Names and ids of the host's groups or accounts. */
  private async all(database: 'group' | 'passwd'): Promise<Map<string, number>> {
    const out = (await this.runner.read(['getent', database])).stdout;
    return new Map(
      out.split('\n').flatMap((line) => {
        const [name, , gid] = line.split(':');
        return name && gid ? [[name, Number(gid)] as const] : [];
      }),
    );
  }
}
