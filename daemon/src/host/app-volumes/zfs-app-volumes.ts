import { ProblemError } from '../../core/problem-error.ts';
import type { ZfsDriver } from '../zfs/zfs-driver.ts';
import type { AppVolume, AppVolumes } from './app-volumes.ts';

/** App volumes as ZFS datasets `<pool>/apps/<id>`, snapshots as ZFS snapshots. */
export class ZfsAppVolumes implements AppVolumes {
  readonly kind = 'zfs';
  readonly quotaEnforced = true;

  constructor(private readonly zfs: ZfsDriver) {}

  private async command(argv: string[]): Promise<void> {
    // zfs-fuse answers "dataset is busy" for a moment after a file system was used: try again.
    for (let attempt = 0; ; attempt++) {
      const r = await this.zfs.run(argv);
      if (r.exitCode === 0) return;
      if (attempt < 20 && /busy/i.test(r.stderr)) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        continue;
      }
      throw new ProblemError('storage.command.failed', { command: argv, exitCode: r.exitCode, output: (r.stderr + r.stdout).trim().slice(0, 4000) });
    }
  }

  async poolExists(pool: string): Promise<boolean> {
    return (await this.zfs.listPools()).some((p) => p.name === pool);
  }

  async ensure(pool: string, appId: string): Promise<AppVolume> {
    const name = `${pool}/apps/${appId}`;
    if (!(await this.zfs.exists(`${pool}/apps`))) await this.command(['zfs', 'create', `${pool}/apps`]);
    if (!(await this.zfs.exists(name))) await this.command(['zfs', 'create', name]);
    const found = await this.find(name);
    if (!found) throw new ProblemError('storage.dataset.not_found', { dataset: name });
    return found;
  }

  async find(name: string): Promise<AppVolume | null> {
    const [object] = await this.zfs.objects(name, 0);
    const mountpoint = object?.props.get('mountpoint');
    return mountpoint?.startsWith('/') ? { name, path: mountpoint } : null;
  }

  snapshot(name: string, snapshot: string): Promise<void> {
    return this.command(['zfs', 'snapshot', `${name}@${snapshot}`]);
  }

  async rollback(name: string, snapshot: string): Promise<void> {
    await this.command(['zfs', 'rollback', '-r', `${name}@${snapshot}`]);
    await this.destroySnapshot(name, snapshot);
  }

  destroySnapshot(name: string, snapshot: string): Promise<void> {
    return this.command(['zfs', 'destroy', `${name}@${snapshot}`]);
  }

  destroy(name: string): Promise<void> {
    return this.command(['zfs', 'destroy', '-r', '-f', name]);
  }

  /** quota, not refquota: the snapshot kept for a rollback counts too, so the pool's share of an app has one bound. */
  setQuota(name: string, bytes: number | null): Promise<void> {
    return this.command(['zfs', 'set', `quota=${bytes === null ? 'none' : String(bytes)}`, name]);
  }

  async usedBytes(name: string): Promise<number | null> {
    const [object] = await this.zfs.objects(name, 0);
    const used = object?.props.get('used');
    return used !== undefined && /^\d+$/.test(used) ? Number(used) : null;
  }
}
