import type { SnapshotKind, SnapshotSchedule, SnapshotScheduleList } from '../../../../shared/src/api/storage/storage.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { kindProperty } from '../../host/zfs/zfs-driver.ts';
import { numberProp } from '../../host/zfs/zfs-get.ts';
import type { ZfsDriver } from '../../host/zfs/zfs-driver.ts';
import { periodStart, serviceSnapshotName, snapshotsToPrune } from './snapshot-names.ts';
import type { SnapshotsService } from './snapshots.service.ts';
import type { StorageModels } from './storage.model.ts';

export const snapshotKinds: SnapshotKind[] = ['hourly', 'daily', 'weekly', 'monthly'];
export const defaultKeep: Record<SnapshotKind, number> = { hourly: 24, daily: 7, weekly: 4, monthly: 6 };

export interface SnapshotSchedulesDeps {
  models: StorageModels;
  snapshots: SnapshotsService;
  zfs: ZfsDriver;
  clock: Clock;
  logger: Logger;
  /** The box's time zone: periods start at its midnights. */
  zone?: () => string;
  /** Told once per pass with the datasets that got a new snapshot (replication tasks that follow the schedules run then). */
  snapshotsTaken?: (datasets: string[]) => void;
}

/** Per-dataset schedules: one snapshot per period of the box's zone, pruning only their own beyond keep. */
export class SnapshotSchedules {
  constructor(private readonly deps: SnapshotSchedulesDeps) {}

  async get(dataset: string): Promise<SnapshotScheduleList> {
    await this.deps.snapshots.requireDataset(dataset);
    const rows = await this.deps.models.snapshotSchedules.findAll({ where: { dataset } });
    const schedules: SnapshotSchedule[] = snapshotKinds.map((kind) => {
      const row = rows.find((r) => r.kind === kind);
      return { kind, enabled: row?.enabled ?? false, keep: row?.keep ?? defaultKeep[kind] };
    });
    return { dataset, schedules };
  }

  async save(body: SnapshotScheduleList): Promise<SnapshotScheduleList> {
    await this.deps.snapshots.requireDataset(body.dataset);
    for (const s of body.schedules) await this.deps.models.snapshotSchedules.upsert({ dataset: body.dataset, kind: s.kind, enabled: s.enabled, keep: s.keep });
    return this.get(body.dataset);
  }

  /** One pass of every enabled schedule: take the period's snapshot when missing, then prune. */
  async runDue(signal?: AbortSignal): Promise<void> {
    const rows = await this.deps.models.snapshotSchedules.findAll({ where: { enabled: true } });
    const taken = new Set<string>();
    for (const row of rows) {
      signal?.throwIfAborted();
      try {
        if (await this.runOne(row.dataset, row.kind, row.keep)) taken.add(row.dataset);
      } catch (err) {
        this.deps.logger.warn('snapshot schedule failed', {
          logCode: 'storage.snapshotScheduleFailed',
          component: 'storage',
          dataset: row.dataset,
          kind: row.kind,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
    if (taken.size > 0) this.deps.snapshotsTaken?.([...taken]);
  }

  /** Answers whether it took a snapshot. */
  private async runOne(dataset: string, kind: SnapshotKind, keep: number): Promise<boolean> {
    const now = this.deps.clock.now();
    const at = periodStart(kind, now, this.deps.zone?.());
    const objects = (await this.deps.zfs.objects(dataset, 1)).filter((o) => o.name.startsWith(`${dataset}@`));
    const name = serviceSnapshotName(kind, at);
    const missing = !objects.some((o) => o.name === `${dataset}@${name}`);
    if (missing) {
      const taken = await this.deps.snapshots.take(dataset, kind, at);
      objects.push({
        name: `${dataset}@${taken.name}`,
        props: new Map([
          [kindProperty, kind],
          ['userrefs', '0'],
        ]),
      });
    }
    const candidates = objects.map((o) => ({
      name: o.name.slice(dataset.length + 1),
      recordedKind: o.props.get(kindProperty) ?? null,
      holds: numberProp(o, 'userrefs') ?? 0,
    }));
    for (const doomed of snapshotsToPrune(candidates, kind, keep, now)) {
      const r = await this.deps.snapshots.destroy(`${dataset}@${doomed}`);
      if (r.exitCode !== 0)
        this.deps.logger.warn('snapshot not pruned', {
          logCode: 'storage.snapshotNotPruned',
          component: 'storage',
          snapshot: `${dataset}@${doomed}`,
          error: r.stderr.trim(),
        });
      else this.deps.logger.info('snapshot pruned', { logCode: 'storage.snapshotPruned', component: 'storage', snapshot: `${dataset}@${doomed}` });
    }
    return missing;
  }
}
