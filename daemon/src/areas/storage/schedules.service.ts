import type { Frequency, ScheduleEntry, StorageScheduleList, StorageScheduleUpdate } from '../../../../shared/src/api/storage/storage.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { fromWallTime, wallTime } from '../../core/zoned-time.ts';
import type { StorageModels } from './storage.model.ts';

const smartKey = 'smart';
const scrubKey = (pool: string) => `scrub:${pool}`;

/** The next run after `from`: a week or a calendar month later, at the same time on the wall clock of `zone` (the box's). */
export function nextRunAfter(frequency: Frequency, from: number, zone = 'UTC'): number | null {
  if (frequency === 'off') return null;
  const w = wallTime(from, zone);
  const at = { ...w, second: 0 };
  return fromWallTime(frequency === 'weekly' ? { ...at, day: w.day + 7 } : { ...at, month: w.month + 1 }, zone);
}

export interface SchedulesDeps {
  models: StorageModels;
  clock: Clock;
  logger: Logger;
  /** The box's time zone: runs keep their time of day on its wall clock. */
  zone?: () => string;
  poolNames(): Promise<string[]>;
  scrub(pool: string): Promise<void>;
  smartSelfTests(): Promise<void>;
}

/**
 * Scrub per pool and SMART self-tests, off/weekly/monthly. Last and next runs are stored, so
 * a run missed while the daemon was down happens once at the next tick, then the rhythm goes on from then.
 */
export class SchedulesService {
  constructor(private readonly deps: SchedulesDeps) {}

  async list(): Promise<StorageScheduleList> {
    const rows = new Map((await this.deps.models.schedules.findAll()).map((r) => [r.key, r]));
    const entry = (key: string): ScheduleEntry => {
      const row = rows.get(key);
      return { frequency: row?.frequency ?? 'off', lastRunAt: row?.lastRunAt ?? null, nextRunAt: row?.nextRunAt ?? null };
    };
    const pools = await this.deps.poolNames();
    return { scrub: pools.map((pool) => ({ pool, ...entry(scrubKey(pool)) })), smartSelfTest: entry(smartKey) };
  }

  async update(body: StorageScheduleUpdate): Promise<StorageScheduleList> {
    const pools = new Set(await this.deps.poolNames());
    for (const s of body.scrub ?? []) if (!pools.has(s.pool)) throw new ProblemError('storage.pool.not_found', { pool: s.pool });
    for (const s of body.scrub ?? []) await this.set(scrubKey(s.pool), s.frequency);
    if (body.smartSelfTest) await this.set(smartKey, body.smartSelfTest.frequency);
    return this.list();
  }

  /** Runs every due schedule once. */
  async runDue(): Promise<void> {
    const now = this.deps.clock.now();
    const due = (await this.deps.models.schedules.findAll()).filter((r) => r.frequency !== 'off' && r.nextRunAt !== null && Date.parse(r.nextRunAt) <= now);
    for (const row of due) {
      try {
        if (row.key === smartKey) await this.deps.smartSelfTests();
        else await this.deps.scrub(row.key.slice('scrub:'.length));
      } catch (err) {
        this.deps.logger.warn('storage schedule failed', {
          logCode: 'storage.scheduleFailed',
          component: 'storage',
          schedule: row.key,
          error: err instanceof Error ? err.message : String(err),
        });
      }
      const next = nextRunAfter(row.frequency, now, this.zone());
      await row.update({ lastRunAt: new Date(now).toISOString(), nextRunAt: next === null ? null : new Date(next).toISOString() });
    }
  }

  /**
   * The box moved to another zone: each planned run keeps its time of day on the wall clock, as
   * a cron job does, so a scrub at 03:00 stays at 03:00 in the new zone. A run that lands in the past is due now.
   */
  async zoneChanged(from: string, to: string): Promise<void> {
    for (const row of await this.deps.models.schedules.findAll()) {
      if (row.nextRunAt === null) continue;
      const next = fromWallTime(wallTime(Date.parse(row.nextRunAt), from), to);
      await row.update({ nextRunAt: new Date(next).toISOString() });
    }
  }

  private zone(): string {
    return this.deps.zone?.() ?? 'UTC';
  }

  private async set(key: string, frequency: Frequency): Promise<void> {
    const row = await this.deps.models.schedules.findByPk(key);
    if (row?.frequency === frequency) return;
    const from = row?.lastRunAt ? Date.parse(row.lastRunAt) : this.deps.clock.now();
    const next = nextRunAfter(frequency, from, this.zone());
    await this.deps.models.schedules.upsert({
      key,
      frequency,
      lastRunAt: row?.lastRunAt ?? null,
      nextRunAt: next === null ? null : new Date(next).toISOString(),
    });
  }
}
