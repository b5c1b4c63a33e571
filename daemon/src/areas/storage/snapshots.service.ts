import type { ServiceKind, Snapshot, SnapshotList } from '../../../../shared/src/api/storage/storage.ts';
import type { Clock } from '../../core/clock.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { CommandResult } from '../../host/command-runner.ts';
import { numberProp, type ZfsObject } from '../../host/zfs/zfs-get.ts';
import { kindProperty, zfsCommands, type ZfsDriver } from '../../host/zfs/zfs-driver.ts';
import { parseServiceName, serviceSnapshotName } from './snapshot-names.ts';

export interface SnapshotsDeps {
  zfs: ZfsDriver;
  clock: Clock;
}

const serviceKinds = new Set<string>(['manual', 'restore', 'hourly', 'daily', 'weekly', 'monthly']);

function toSnapshot(o: ZfsObject): Snapshot {
  const [dataset = '', name = ''] = o.name.split('@');
  const recorded = o.props.get(kindProperty) ?? null;
  const parsed = parseServiceName(name);
  // Only a snapshot the service marked is the service's: a look-alike name alone is somebody else's.
  const serviceKind = recorded && serviceKinds.has(recorded) && parsed?.kind === recorded ? (recorded as ServiceKind) : null;
  return {
    dataset,
    name,
    createdAt: new Date((numberProp(o, 'creation') ?? 0) * 1000).toISOString(),
    usedBytes: numberProp(o, 'used'),
    referencedBytes: numberProp(o, 'referenced'),
    holds: numberProp(o, 'userrefs') ?? 0,
    serviceKind,
  };
}

/** Listing, manual snapshots, and the hold named service. */
export class SnapshotsService {
  constructor(private readonly deps: SnapshotsDeps) {}

  /** Oldest first: by creation, then by the service name's time (several can share a second). */
  async list(dataset: string): Promise<SnapshotList> {
    const objects = await this.deps.zfs.objects(dataset, 1);
    const self = objects.find((o) => o.name === dataset);
    if (!self || self.props.get('type') === 'snapshot') throw new ProblemError('storage.dataset.not_found', { dataset });
    const snapshots = objects
      .filter((o) => o.name.startsWith(`${dataset}@`))
      .map(toSnapshot)
      .sort(
        (a, b) =>
          a.createdAt.localeCompare(b.createdAt) || (parseServiceName(a.name)?.at ?? 0) - (parseServiceName(b.name)?.at ?? 0) || a.name.localeCompare(b.name),
      );
    return { dataset, snapshots };
  }

  /** Every snapshot of a dataset and its children, by full name (share.delete previews list them). */
  async ofTree(dataset: string): Promise<{ fullName: string; holds: number }[]> {
    const objects = await this.deps.zfs.objects(dataset);
    return objects.filter((o) => o.props.get('type') === 'snapshot').map((o) => ({ fullName: o.name, holds: numberProp(o, 'userrefs') ?? 0 }));
  }

  async createManual(dataset: string): Promise<Snapshot> {
    return this.take(dataset, 'manual', this.deps.clock.now());
  }

  /** Takes `service-<kind>-<utc>` marked with its kind. */
  async take(dataset: string, kind: ServiceKind, at: number): Promise<Snapshot> {
    await this.requireDataset(dataset);
    const name = serviceSnapshotName(kind, at);
    this.check(await this.deps.zfs.run(zfsCommands.snapshot(dataset, name, kind)), { dataset });
    const found = (await this.list(dataset)).snapshots.find((s) => s.name === name);
    if (!found) throw new ProblemError('storage.snapshot.not_found', { snapshot: `${dataset}@${name}` });
    return found;
  }

  async hold(dataset: string, snapshot: string): Promise<void> {
    const full = await this.requireSnapshot(dataset, snapshot);
    const r = await this.deps.zfs.run(zfsCommands.hold(full));
    if (r.exitCode !== 0 && /tag already exists/i.test(r.stderr)) throw new ProblemError('storage.snapshot.already_held', { snapshot: full });
    this.check(r, { snapshot: full });
  }

  /** Releases only the tag `service`: ZFS keeps every other tool's hold. */
  async release(dataset: string, snapshot: string): Promise<void> {
    const full = await this.requireSnapshot(dataset, snapshot);
    const r = await this.deps.zfs.run(zfsCommands.release(full));
    if (r.exitCode !== 0 && /no such tag/i.test(r.stderr)) throw new ProblemError('storage.snapshot.not_held', { snapshot: full });
    this.check(r, { snapshot: full });
  }

  async destroy(fullName: string): Promise<CommandResult> {
    return this.deps.zfs.run(zfsCommands.destroySnapshot(fullName));
  }

  async requireDataset(dataset: string): Promise<void> {
    const [self] = await this.deps.zfs.objects(dataset, 0);
    if (!self || self.props.get('type') === 'snapshot') throw new ProblemError('storage.dataset.not_found', { dataset });
  }

  private async requireSnapshot(dataset: string, snapshot: string): Promise<string> {
    const full = `${dataset}@${snapshot}`;
    if (!(await this.deps.zfs.exists(full))) throw new ProblemError('storage.snapshot.not_found', { snapshot: full });
    return full;
  }

  private check(r: CommandResult, params: Record<string, unknown>): void {
    if (r.exitCode !== 0) throw new ProblemError('storage.command.failed', { ...params, command: [], exitCode: r.exitCode, output: r.stderr.trim() });
  }
}
