import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandRunner } from '../command-runner.ts';
import { holdTag, kindProperty } from '../zfs/zfs-driver.ts';

/** The snapshots taken before updates, on every system dataset at once, with the service's hold. */
export class SystemSnapshots {
  constructor(
    private readonly runner: CommandRunner,
    readonly datasets: readonly string[],
  ) {}

  /** Snapshots every system dataset under one name and holds each. */
  async take(name: string): Promise<void> {
    for (const ds of this.datasets) {
      await this.runner.run(['zfs', 'snapshot', '-o', `${kindProperty}=update`, `${ds}@${name}`]);
      await this.runner.run(['zfs', 'hold', holdTag, `${ds}@${name}`]);
    }
  }

  async release(name: string): Promise<void> {
    for (const ds of this.datasets) await this.runner.run(['zfs', 'release', holdTag, `${ds}@${name}`], { allowFailure: true });
  }

  /**
   * Returns every system dataset to the snapshot. Later update snapshots go with it (rollback -r):
   * their holds are released first, since a held snapshot cannot be destroyed.
   */
  async rollback(name: string, later: readonly string[]): Promise<void> {
    for (const other of later) await this.release(other);
    for (const ds of this.datasets) await this.runner.run(['zfs', 'rollback', '-r', `${ds}@${name}`], { timeoutMs: 10 * 60_000 });
  }

  /**
   * The system dataset whose own file system holds `dir`, or null: a rollback of that dataset would
   * take `dir` back too. A dataset mounted below a system dataset's mount point is its own file system.
   */
  async holding(folder: string): Promise<string | null> {
    if (this.datasets.length === 0) return null;
    const dir = path.resolve(folder);
    const dev = (await stat(dir)).dev;
    for (const ds of this.datasets) {
      const mountpoint = await this.mountpoint(ds);
      if (mountpoint === null) continue;
      const relative = path.relative(mountpoint, dir);
      if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) continue;
      if ((await stat(mountpoint)).dev === dev) return ds;
    }
    return null;
  }

  /** Where a dataset is mounted: its property, or for `legacy` (a root mounted by fstab) where the mount table has it. */
  private async mountpoint(ds: string): Promise<string | null> {
    const property = (await this.runner.read(['zfs', 'get', '-H', '-o', 'value', 'mountpoint', ds], { allowFailure: true })).stdout.trim();
    if (path.isAbsolute(property)) return property;
    if (property !== 'legacy') return null;
    const mounted = await this.runner.read(['findmnt', '-n', '-o', 'TARGET', '--source', ds], { allowFailure: true });
    return mounted.stdout.split('\n')[0]?.trim() || null;
  }

  /** The update snapshots present on every system dataset, oldest first, with whether the first dataset's is held. */
  async list(prefix: string): Promise<{ name: string; held: boolean }[]> {
    if (this.datasets.length === 0) return [];
    const per = await Promise.all(
      this.datasets.map(async (ds) => {
        const out = await this.runner.read(['zfs', 'list', '-H', '-t', 'snapshot', '-o', 'name', '-r', ds], { allowFailure: true });
        return new Set(
          out.stdout
            .split('\n')
            .filter((line) => line.startsWith(`${ds}@${prefix}`))
            .map((line) => line.slice(ds.length + 1)),
        );
      }),
    );
    const names = [...per[0]!].filter((n) => per.every((set) => set.has(n))).sort();
    return Promise.all(
      names.map(async (name) => {
        const refs = await this.runner.read(['zfs', 'get', '-H', '-p', '-o', 'value', 'userrefs', `${this.datasets[0]}@${name}`], { allowFailure: true });
        return { name, held: Number(refs.stdout.trim()) > 0 };
      }),
    );
  }
}

/** The ZFS datasets holding `/`, `/usr` and `/var`, where they are on ZFS (a box installed on ZFS); empty otherwise. */
export async function findSystemDatasets(runner: CommandRunner): Promise<string[]> {
  const found = new Set<string>();
  for (const target of ['/', '/usr', '/var']) {
    const out = await runner.read(['findmnt', '-n', '-o', 'SOURCE,FSTYPE', '--target', target], { allowFailure: true });
    const [source, type] = out.stdout.trim().split(/\s+/);
    if (type === 'zfs' && source) found.add(source);
  }
  return [...found];
}
