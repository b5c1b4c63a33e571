import type { ReplicationSchedule } from '../../../../../shared/src/api/replication/tasks.ts';
import type { SnapshotKind } from '../../../../../shared/src/api/storage/snapshots.ts';
import { periodStart } from '../../storage/snapshot-names.ts';

const hour = 3_600_000;
/**
 * A step from a period's start that always lands inside the next period, whatever the zone does
 * to a day's length (23 to 25 hours) or a month's (28 to 31 days).
 */
const intoNext: Record<SnapshotKind, number> = { hourly: hour, daily: 25 * hour, weekly: 7 * 24 * hour + hour, monthly: 32 * 24 * hour };

/**
 * When a task with its own times runs next after `from`: at the start of the next period on the
 * box's wall clock, as the snapshot schedules take their snapshots (an hour; a day from midnight;
 * a week from Monday; a month from the first). A task that follows the snapshot schedules has
 * no time of its own: their runs start it.
 */
export function nextTaskRun(schedule: ReplicationSchedule, from: number, zone = 'UTC'): number | null {
  if (schedule.kind === 'afterSnapshots') return null;
  return periodStart(schedule.period, periodStart(schedule.period, from, zone) + intoNext[schedule.period], zone);
}
