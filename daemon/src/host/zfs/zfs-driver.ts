import type { CommandResult, CommandRunner } from '../command-runner.ts';
import { probeCapabilities, type ZfsCapabilities } from './capabilities.ts';
import { parseZfsGet, type ZfsObject } from './zfs-get.ts';
import { parseZpoolList, poolListColumns, type PoolListRow } from './zpool-list.ts';
import { parseZpoolStatus, type PoolStatus } from './zpool-status.ts';

/** User property marking the service's own snapshots with their kind (manual, hourly, ...). */
export const kindProperty = 'cellar:kind';
export const holdTag = 'service';

const datasetProps = [
  'type',
  'creation',
  'used',
  'available',
  'referenced',
  'quota',
  'refquota',
  'mountpoint',
  'mounted',
  'readonly',
  'userrefs',
  kindProperty,
];

/**
 * OpenZFS command-line driver: argument arrays only, machine-readable output (`-H`, and `-p`
 * where the running ZFS has it). Probes (`read`) always run; changes go through `run`, which
 * the runner only logs unless it was built to apply them.
 */
export class ZfsDriver {
  private caps: Promise<ZfsCapabilities> | null = null;

  constructor(private readonly runner: CommandRunner) {}

  capabilities(): Promise<ZfsCapabilities> {
    // A failed probe (ZFS not installed yet) is not kept: the next call probes again.
    this.caps ??= probeCapabilities(this.runner).catch((err: unknown) => {
      this.caps = null;
      throw err;
    });
    return this.caps;
  }

  async listPools(): Promise<PoolListRow[]> {
    const caps = await this.capabilities();
    const argv = ['zpool', 'list', '-H', ...(caps.parsableLists ? ['-p'] : []), '-o', poolListColumns.join(',')];
    const r = await this.runner.read(argv, { allowFailure: true });
    // "no pools available" is not a failure.
    if (r.exitCode !== 0) return [];
    return parseZpoolList(r.stdout);
  }

  async status(pool?: string): Promise<PoolStatus[]> {
    const r = await this.runner.read(['zpool', 'status', ...(pool ? [pool] : [])], { allowFailure: true });
    return parseZpoolStatus(r.stdout);
  }

  /** Pools that `zpool import` would import from the devices in `dirs`; imports nothing. */
  async importScan(dirs: readonly string[]): Promise<PoolStatus[]> {
    const r = await this.runner.read(['zpool', 'import', ...dirs.flatMap((d) => ['-d', d])], { allowFailure: true, timeoutMs: 120_000 });
    return parseZpoolStatus(r.stdout);
  }

  /** Every file system and snapshot below `root` with the properties the service shows. */
  async objects(root: string, depth?: number): Promise<ZfsObject[]> {
    const argv = [
      'zfs',
      'get',
      '-H',
      '-p',
      '-r',
      ...(depth === undefined ? [] : ['-d', String(depth)]),
      '-o',
      'name,property,value',
      datasetProps.join(','),
      root,
    ];
    const r = await this.runner.read(argv, { allowFailure: true, timeoutMs: 120_000 });
    if (r.exitCode !== 0) return [];
    return parseZfsGet(r.stdout);
  }

  async exists(name: string): Promise<boolean> {
    const r = await this.runner.read(['zfs', 'get', '-H', '-o', 'value', 'type', name], { allowFailure: true });
    return r.exitCode === 0;
  }

  run(argv: readonly string[], signal?: AbortSignal): Promise<CommandResult> {
    return this.runner.run(argv, { timeoutMs: 10 * 60_000, signal, allowFailure: true });
  }
}

/** Commands as argument arrays; plans show them and run exactly these. */
export const zfsCommands = {
  snapshot: (dataset: string, name: string, kind: string) => ['zfs', 'snapshot', '-o', `${kindProperty}=${kind}`, `${dataset}@${name}`],
  hold: (snapshot: string) => ['zfs', 'hold', holdTag, snapshot],
  release: (snapshot: string) => ['zfs', 'release', holdTag, snapshot],
  destroySnapshot: (snapshot: string) => ['zfs', 'destroy', snapshot],
  scrubStart: (pool: string) => ['zpool', 'scrub', pool],
  scrubPause: (pool: string) => ['zpool', 'scrub', '-p', pool],
  scrubStop: (pool: string) => ['zpool', 'scrub', '-s', pool],
};
