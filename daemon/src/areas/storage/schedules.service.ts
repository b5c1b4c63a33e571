import type { Frequency, ScheduleEntry, StorageScheduleList, StorageScheduleUpdate } from '../../../../shared/src/api/storage.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { StorageModels } from './storage.model.ts';

const smartKey = 'smart';
const scrubKey = (pool: string) => `scrub:${pool}`;

/** The next run after `from`: a week or a calendar month later (UTC). */
export function nextRunAfter(frequency: Frequency, from: number): number | null {
  if (frequency === 'off') return null;
  if (frequency === 'weekly') return from + 7 * 24 * 3600_000;
  const d = new Date(from);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes());
}

export interface SchedulesDeps {
  models: StorageModels;
  clock: Clock;
  logger: Logger;
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
        this.deps.logger.warn('storage schedule failed', { component: 'storage', schedule: row.key, error: err instanceof Error ? err.message : String(err) });
      }
      const next = nextRunAfter(row.frequency, now);
      await row.update({ lastRunAt: new Date(now).toISOString(), nextRunAt: next === null ? null : new Date(next).toISOString() });
    }
  }

  private async set(key: string, frequency: Frequency): Promise<void> {
    const row = await this.deps.models.schedules.findByPk(key);
    if (row?.frequency === frequency) return;
    const from = row?.lastRunAt ? Date.parse(row.lastRunAt) : this.deps.clock.now();
    const next = nextRunAfter(frequency, from);
    await this.deps.models.schedules.upsert({
      key,
      frequency,
      lastRunAt: row?.lastRunAt ?? null,
      nextRunAt: next === null ? null : new Date(next).toISOString(),
    });
  }
}
