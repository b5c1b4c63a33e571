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

  /** Makes the share's group (if needed) hold exactly these users, in one command; answers its gid. */
  async ensure(shareId: number, usernames: readonly string[]): Promise<number> {
    const name = this.name(shareId);
    if (!(await this.all()).has(name)) await this.runner.run(['groupadd', '--system', name]);
    const gid = (await this.all()).get(name);
    if (gid === undefined) throw new Error(`group ${name} was not made`);
    await this.runner.run(['gpasswd', '--members', [...usernames].sort().join(','), name]);
    return gid;
  }

  /** Removes the groups of every share not among `shareIds`; answers the names removed. */
  async removeOthers(shareIds: ReadonlySet<number>): Promise<string[]> {
    if (!this.runner.apply) return [];
    const stale = [...(await this.all()).keys()].filter((name) => {
      const id = name.startsWith(this.prefix) ? name.slice(this.prefix.length) : '';
      return /^[0-9]+$/.test(id) && !shareIds.has(Number(id));
    });
    for (const name of stale) await this.runner.run(['groupdel', name]);
    return stale;
  }

  private async all(): Promise<Map<string, number>> {
    const out = (await this.runner.read(['getent', 'group'])).stdout;
    return new Map(
      out.split('\n').flatMap((line) => {
        const [name, , gid] = line.split(':');
        return name && gid ? [[name, Number(gid)] as const] : [];
      }),
    );
  }
}
