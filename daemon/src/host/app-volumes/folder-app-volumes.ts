import { execFile } from 'node:child_process';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AppVolume, AppVolumes } from './app-volumes.ts';

const run = promisify(execFile);

/**
 * App volumes as folders below the data directory, for a development machine without ZFS:
 * `<root>/<pool>/<id>`, a snapshot a full copy beside it (`cp -a`, owners and modes kept).
 * Any pool name is taken; nothing touches the host's pools.
 */
export class FolderAppVolumes implements AppVolumes {
  readonly kind = 'folder';
  /** A folder has no quota of its own: kept in the database, not enforced (the App Center says so). */
  readonly quotaEnforced = false;

  constructor(private readonly root: string) {}

  private folder(name: string): string {
    return path.join(this.root, name);
  }

  private snapshotFolder(name: string, snapshot: string): string {
    return path.join(this.root, path.dirname(name), '.snapshots', `${path.basename(name)}@${snapshot}`);
  }

  async poolExists(): Promise<boolean> {
    return true;
  }

  async ensure(pool: string, appId: string): Promise<AppVolume> {
    const name = `${pool}/${appId}`;
    await mkdir(this.folder(name), { recursive: true, mode: 0o755 });
    return { name, path: this.folder(name) };
  }

  async find(name: string): Promise<AppVolume | null> {
    const s = await stat(this.folder(name)).catch(() => null);
    return s?.isDirectory() ? { name, path: this.folder(name) } : null;
  }

  async snapshot(name: string, snapshot: string): Promise<void> {
    const to = this.snapshotFolder(name, snapshot);
    await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
    await run('cp', ['-a', '--', this.folder(name), to]);
  }

  async rollback(name: string, snapshot: string): Promise<void> {
    await rm(this.folder(name), { recursive: true, force: true });
    await rename(this.snapshotFolder(name, snapshot), this.folder(name));
  }

  async destroySnapshot(name: string, snapshot: string): Promise<void> {
    await rm(this.snapshotFolder(name, snapshot), { recursive: true, force: true });
  }

  async destroy(name: string): Promise<void> {
    await rm(this.folder(name), { recursive: true, force: true });
    const snapshots = path.join(this.root, path.dirname(name), '.snapshots');
    const prefix = `${path.basename(name)}@`;
    for (const entry of await readdir(snapshots).catch(() => [] as string[]))
      if (entry.startsWith(prefix)) await rm(path.join(snapshots, entry), { recursive: true, force: true });
  }

  async setQuota(): Promise<void> {}

  async usedBytes(): Promise<number | null> {
    return null;
  }
}
