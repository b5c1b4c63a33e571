import type { CommandRunner } from '../command-runner.ts';
import type { TargetSnapshot } from './target-retention.ts';

/** The hold a task keeps on the source's snapshot the target holds as its newest: the schedules' pruning passes it by. */
export const replicationHoldTag = (taskId: number) => `cellar-replication-${taskId}`;

/** Reads `zfs get -H -p -o name,property,value guid,createtxg,creation` lines into snapshots; datasets are left out. */
export function parseSnapshotProps(stdout: string): TargetSnapshot[] {
  const byName = new Map<string, Map<string, string>>();
  for (const line of stdout.split('\n')) {
    const [name, property, value] = line.split('\t');
    if (!name?.includes('@') || property === undefined || value === undefined) continue;
    const props = byName.get(name) ?? new Map<string, string>();
    props.set(property, value);
    byName.set(name, props);
  }
  return [...byName].map(([name, props]) => ({
    name,
    guid: props.get('guid') ?? '',
    createtxg: Number(props.get('createtxg')),
    creation: Number(props.get('creation')),
  }));
}

/**
 * The snapshots of a dataset as replication compares them (by guid, ordered by createtxg) and the
 * holds a task keeps on the source. `zfs get` rather than `zfs list`: zfs-fuse's list has no `-p`.
 */
export class ReplicationSnapshots {
  constructor(private readonly runner: CommandRunner) {}

  /** The dataset's own snapshots (not its children's); none when the dataset does not exist. */
  async list(dataset: string, signal?: AbortSignal): Promise<TargetSnapshot[]> {
    const argv = ['zfs', 'get', '-H', '-p', '-r', '-d', '1', '-o', 'name,property,value', 'guid,createtxg,creation', dataset];
    const r = await this.runner.read(argv, { allowFailure: true, timeoutMs: 120_000, signal });
    if (r.exitCode !== 0) return [];
    return parseSnapshotProps(r.stdout).filter((s) => s.name.startsWith(`${dataset}@`));
  }

  /** Holds a snapshot for a task; holding it again is no failure. */
  async hold(taskId: number, snapshot: string): Promise<void> {
    await this.runner.run(['zfs', 'hold', replicationHoldTag(taskId), snapshot], { allowFailure: true });
  }

  /** Releases the task's hold; a snapshot without it is no failure. */
  async release(taskId: number, snapshot: string): Promise<void> {
    await this.runner.run(['zfs', 'release', replicationHoldTag(taskId), snapshot], { allowFailure: true });
  }
}
