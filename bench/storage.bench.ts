import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { PoolsService } from '../daemon/src/areas/storage/pools.service.ts';
import { serviceSnapshotName, snapshotsToPrune, type PruneCandidate } from '../daemon/src/areas/storage/snapshot-names.ts';
import { createLogger } from '../daemon/src/core/logger.ts';
import { CommandRunner } from '../daemon/src/host/command-runner.ts';
import { ZfsDriver } from '../daemon/src/host/zfs/zfs-driver.ts';
import type { BenchRow } from './lib/table.ts';

// zfs-fuse creates about six datasets a second here, so the 1,000-dataset pool takes about
// three minutes once; its image stays under /tmp and later runs import it again.
const datasets = 1000;
const dir = '/tmp/cellar-bench-zfs';
const image = `${dir}/pool.img`;
const pool = 'cellarbenchpool';
const sh = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const timed = (fn: () => unknown) => {
  const start = performance.now();
  fn();
  return performance.now() - start;
};

function requireZfsFuse(): void {
  try {
    sh(['which', 'zfs-fuse']);
  } catch {
    throw new Error('storage bench needs root and zfs-fuse: apt-get install -y --no-install-recommends zfs-fuse');
  }
  try {
    sh(['pgrep', '-x', 'zfs-fuse']);
  } catch {
    throw new Error('zfs-fuse is installed but not running: start `zfs-fuse --no-daemon &` as root');
  }
}

function imported(): boolean {
  try {
    sh(['zpool', 'list', '-H', '-o', 'name', pool]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reuses the prepared pool (still imported, or its image under /tmp), or builds it with
 * `datasets` file systems. It stays imported afterwards: zfs-fuse keeps answering "pool is
 * busy" to exporting a pool with 1,000 mounted file systems. Remove it with
 * `zpool destroy -f cellarbenchpool; losetup -j /tmp/cellar-bench-zfs/pool.img`, then `losetup -d`.
 */
function preparePool(): { builtMs: number | null } {
  if (imported()) return { builtMs: null };
  const fresh = !existsSync(image);
  mkdirSync(dir, { recursive: true });
  if (fresh) sh(['truncate', '-s', '512M', image]);
  const loop = sh(['losetup', '-f', '--show', image]).trim();
  if (!fresh) {
    sh(['zpool', 'import', '-d', '/dev', pool]);
    return { builtMs: null };
  }
  const start = performance.now();
  sh(['zpool', 'create', '-m', `${dir}/mnt`, pool, loop]);
  for (let i = 0; i < datasets; i++) sh(['zfs', 'create', `${pool}/d${i}`]);
  return { builtMs: performance.now() - start };
}

/** Pruning 10,000 snapshots (the decision) and a real destroy batch; listing a pool with 1,000 datasets through the service. */
export async function storageBench(): Promise<BenchRow[]> {
  requireZfsFuse();
  const rows: BenchRow[] = [];
  const { builtMs } = preparePool();
  if (builtMs !== null)
    rows.push({
      name: `build the bench pool: ${datasets} zfs create (once, then reused)`,
      value: builtMs / 1000,
      unit: 's',
      target: 'informational',
      ok: true,
    });
  const zfsList = Math.min(...[0, 1, 2].map(() => timed(() => sh(['zfs', 'list', '-H', '-r', '-o', 'name,used,available,mountpoint', pool]))));
  const logger = createLogger({ level: 'error', console: false, sinks: [] });
  const pools = new PoolsService({
    zfs: new ZfsDriver(new CommandRunner(logger, false)),
    clock: { now: () => Date.now() },
    publisher: { publish: () => undefined },
    importDirs: [],
    scrubPollMs: 60_000,
  });
  let serviceMs = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    const list = await pools.refresh();
    serviceMs = Math.min(serviceMs, performance.now() - start);
    const count = list.pools.find((p) => p.name === pool)?.datasets.length ?? 0;
    if (count < datasets) throw new Error(`the service listed ${count} datasets, expected ${datasets + 1}`);
  }
  pools.close();
  rows.push({
    name: `list pools (service refresh: zpool list, status, zfs get) with ${datasets} datasets`,
    value: serviceMs,
    unit: 'ms',
    baseline: zfsList,
    baselineName: 'zfs list -r alone',
    target: 'under 5x zfs list',
    ok: serviceMs < 5 * zfsList,
  });

  // 10,000 hourly snapshot names with their recorded kind: only the decision, no ZFS involved.
  const now = Date.UTC(2026, 10, 22, 12);
  const candidates: PruneCandidate[] = Array.from({ length: 10_000 }, (_, i) => ({
    name: serviceSnapshotName('hourly', now - i * 3600_000),
    recordedKind: 'hourly',
    holds: i % 97 === 0 ? 1 : 0,
  }));
  const decision = Math.min(...[0, 1, 2].map(() => timed(() => snapshotsToPrune(candidates, 'hourly', 24, now))));
  rows.push({
    name: 'prune decision over 10,000 snapshots (names only, no ZFS)',
    value: decision,
    unit: 'ms',
    baseline: zfsList,
    baselineName: 'zfs list -r alone',
    target: 'under the zfs list',
    ok: decision < zfsList,
  });

  // A real destroy of a small batch; 10,000 real snapshots would take zfs-fuse half an hour to make.
  const batch = 20;
  for (let i = 0; i < batch; i++) sh(['zfs', 'snapshot', '-o', 'cellar:kind=hourly', `${pool}/d0@${serviceSnapshotName('hourly', now - i * 3600_000)}`]);
  const destroy = timed(() => {
    for (let i = 0; i < batch; i++) sh(['zfs', 'destroy', `${pool}/d0@${serviceSnapshotName('hourly', now - i * 3600_000)}`]);
  });
  rows.push({
    name: `zfs destroy of ${batch} pruned snapshots, per snapshot (zfs-fuse)`,
    value: destroy / batch,
    unit: 'ms',
    baseline: zfsList,
    baselineName: 'zfs list -r alone',
    target: 'informational',
    ok: true,
  });
  return rows;
}
