import path from 'node:path';
import { expect } from 'chai';
import type { StorageOptions } from '../../daemon/src/areas/storage/storage.area.ts';
import { ensureZfsFuse, LoopDisks, waitJob } from '../system/zfs-fixture.ts';
import { startBrowserBox, type BrowserBox } from './browser.ts';
import type { TestClient } from './daemon.ts';

const mib = 1024 * 1024;

/** The storage seams of a daemon that runs real ZFS on the test's loop devices, its pools mounted below the test's folder. */
export function loopStorage(disks: LoopDisks, extra: Partial<StorageOptions> = {}): Partial<StorageOptions> {
  return {
    apply: true,
    includeLoopDevices: true,
    minDiskBytes: 64 * mib,
    mountRoot: path.join(disks.work, 'mnt'),
    importDirs: ['/dev'],
    ...extra,
  };
}

/** Creates a one-disk pool through the daemon's own plan, as the Storage Manager does; the cleanup destroys it. */
export async function createPool(admin: TestClient, disks: LoopDisks, pool: string, disk: number): Promise<void> {
  disks.pools.add(pool);
  const plan = await admin.api.storage.createPlan({ body: { kind: 'pool.create', pool, layout: 'stripe', disks: [disks.name(disk)] } });
  const job = await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: plan.planId } }));
  expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
}

export interface ZfsBrowserBox extends BrowserBox {
  admin: TestClient;
  disks: LoopDisks;
  /** The pools made for the test, one per loop device. */
  pools: string[];
  /** Moves the daemon's clock forward (snapshots are named by the minute). */
  advance(ms: number): void;
  close(): Promise<void>;
}

/**
 * A browser box whose daemon runs real ZFS (zfs-fuse, as root) with `poolCount` one-disk pools on
 * loop devices; closing it destroys the pools and detaches the loops, also after a failed start.
 */
export async function startZfsBrowserBox(prefix: string, poolCount: number): Promise<ZfsBrowserBox> {
  if (process.getuid?.() !== 0) throw new Error('the zfs browser tests need root (zfs-fuse on loop devices)');
  await ensureZfsFuse();
  const disks = new LoopDisks(`${prefix}${process.pid}`);
  let offset = 0;
  let started: BrowserBox | undefined;
  const close = async () => {
    await started?.browser.close();
    await started?.box.close();
    await disks.cleanup();
  };
  try {
    disks.add(poolCount);
    started = await startBrowserBox({ daemon: { clock: { now: () => Date.now() + offset }, storage: loopStorage(disks) } });
    const admin = await started.box.signIn();
    const pools = Array.from({ length: poolCount }, (_, i) => `${disks.prefix}${String.fromCharCode(97 + i)}`);
    for (const [i, pool] of pools.entries()) await createPool(admin, disks, pool, i);
    return { ...started, admin, disks, pools, advance: (ms) => (offset += ms), close };
  } catch (err) {
    await close();
    throw err;
  }
}
