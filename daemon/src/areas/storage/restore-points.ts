import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { kindProperty, type ZfsDriver } from '../../host/zfs/zfs-driver.ts';
import { numberProp } from '../../host/zfs/zfs-get.ts';
import { parseServiceName, periodStart, serviceSnapshotName } from './snapshot-names.ts';
import type { SnapshotsService } from './snapshots.service.ts';

export const restorePointDays = 7;
const dayMs = 24 * 3600_000;

export interface RestorePointsDeps {
  zfs: ZfsDriver;
  snapshots: SnapshotsService;
  clock: Clock;
  logger: Logger;
  /** The box's time zone: a restore point per day of it. */
  zone?: () => string;
  /** Every dataset share and whether its restore points are on. */
  shares(): Promise<{ dataset: string | null; restorePoints: boolean }[]>;
}

/** The restore points a dataset lets go: its own (`service-restore-*`, marked restore) older than 7 days, never held or future ones. */
export function restorePointsToPrune(snapshots: readonly { name: string; recordedKind: string | null; holds: number }[], now: number): string[] {
  return snapshots
    .filter((s) => {
      const parsed = parseServiceName(s.name);
      return parsed?.kind === 'restore' && s.recordedKind === 'restore' && s.holds === 0 && parsed.at <= now && parsed.at < now - restorePointDays * dayMs;
    })
    .map((s) => s.name);
}

/**
 * Daily restore points of shares: one snapshot per day of the box's zone while switched on, each kept 7 days.
 * Pruning also runs for shares switched off, so their last restore points still age out.
 */
export class RestorePoints {
  constructor(private readonly deps: RestorePointsDeps) {}

  async runDue(signal?: AbortSignal): Promise<void> {
    const now = this.deps.clock.now();
    for (const share of await this.deps.shares()) {
      signal?.throwIfAborted();
      if (!share.dataset) continue;
      try {
        await this.runOne(share.dataset, share.restorePoints, now);
      } catch (err) {
        this.deps.logger.warn('restore point failed', {
          logCode: 'storage.restorePointFailed',
          component: 'storage',
          dataset: share.dataset,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }

  private async runOne(dataset: string, enabled: boolean, now: number): Promise<void> {
    const objects = (await this.deps.zfs.objects(dataset, 1)).filter((o) => o.name.startsWith(`${dataset}@`));
    const day = periodStart('daily', now, this.deps.zone?.());
    if (enabled && !objects.some((o) => o.name === `${dataset}@${serviceSnapshotName('restore', day)}`)) {
      await this.deps.snapshots.take(dataset, 'restore', day);
      this.deps.logger.info('restore point taken', { logCode: 'storage.restorePointTaken', component: 'storage', dataset });
    }
    const candidates = objects.map((o) => ({
      name: o.name.slice(dataset.length + 1),
      recordedKind: o.props.get(kindProperty) ?? null,
      holds: numberProp(o, 'userrefs') ?? 0,
    }));
    for (const name of restorePointsToPrune(candidates, now)) {
      const r = await this.deps.snapshots.destroy(`${dataset}@${name}`);
      if (r.exitCode !== 0)
        this.deps.logger.warn('restore point not pruned', {
          logCode: 'storage.restorePointNotPruned',
          component: 'storage',
          snapshot: `${dataset}@${name}`,
          error: r.stderr.trim(),
        });
    }
  }
}
