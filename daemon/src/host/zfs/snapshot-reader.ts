import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ZfsDriver } from './zfs-driver.ts';

/**
 * Reads a snapshot's files. OpenZFS shows them under `<mountpoint>/.zfs/snapshot/<name>`; zfs-fuse
 * has no such folder, so a temporary read-only clone is mounted under a private folder, then
 * unmounted and destroyed (zfs-fuse refuses to destroy a mounted clone).
 */
export class SnapshotReader {
  constructor(
    private readonly zfs: ZfsDriver,
    /** Private folder (mode 0700) for the clones' mount points. */
    private readonly mountDir: string,
  ) {}

  async with<T>(dataset: string, snapshot: string, mountpoint: string, read: (root: string) => Promise<T>): Promise<T> {
    if ((await this.zfs.capabilities()).snapshotDir) return read(path.join(mountpoint, '.zfs', 'snapshot', snapshot));
    const id = randomBytes(6).toString('hex');
    const clone = `${dataset.split('/')[0]}/cellar-version-${id}`;
    const root = path.join(this.mountDir, id);
    await mkdir(this.mountDir, { recursive: true, mode: 0o700 });
    const r = await this.zfs.run(['zfs', 'clone', '-o', 'readonly=on', '-o', `mountpoint=${root}`, `${dataset}@${snapshot}`, clone]);
    if (r.exitCode !== 0) throw new Error(`zfs clone failed: ${r.stderr.trim()}`);
    try {
      return await read(root);
    } finally {
      // zfs-fuse answers "busy" for a moment after the clone's files were read: try again.
      for (let i = 0; i < 20; i++) {
        await this.zfs.run(['zfs', 'unmount', clone]);
        if ((await this.zfs.run(['zfs', 'destroy', clone])).exitCode === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      await rm(root, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}
