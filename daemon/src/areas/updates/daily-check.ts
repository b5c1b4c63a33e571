import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { fromWallTime, wallTime } from '../../core/zoned-time.ts';
import type { UpdatesStateStore } from './updates-state.ts';
import type { UpdatesService } from './updates.service.ts';

/**
 * The latest moment at or before `now` when the daily check was due: the check time of a day in
 * `zone`, plus the box's own delay. A late check time plus the delay can fall after midnight, so
 * the days before today are candidates too; otherwise such a check would never be due.
 */
export function lastDue(now: number, checkTime: string, zone: string, delayMs: number): number {
  const [hour = 3, minute = 0] = checkTime.split(':').map(Number);
  const today = wallTime(now, zone);
  // Each step goes back a day, so some day's check time lies before now.
  for (let back = 0; ; back++) {
    // Date.UTC carries day 0 or -1 into the month before.
    const day = new Date(Date.UTC(today.year, today.month - 1, today.day - back));
    const due = fromWallTime({ year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour, minute, second: 0 }, zone) + delayMs;
    if (due <= now) return due;
  }
}

export interface DailyCheckDeps {
  updates: UpdatesService;
  state: UpdatesStateStore;
  clock: Clock;
  logger: Logger;
  /** The box's time zone: the check time is a wall-clock time there. */
  zone(): string;
  /** This box's part of the hour after the check time. */
  delayMs: number;
}

/**
 * The scheduled work of the daily check: once the check time (plus the delay) has passed since the
 * last check, read the channel and apt; with automatic security updates on, install the security
 * updates found as the same job a manual install is (snapshot, history). The box's own package is
 * only reported: a new version of the service waits for its administrator.
 */
export function dailyCheck(deps: DailyCheckDeps): (signal: AbortSignal) => Promise<void> {
  const { updates, state, clock, logger } = deps;
  // The signal ends a running `apt-get update` when the daemon stops.
  return async (signal) => {
    if ((await updates.installed()).notApplicable !== null) return;
    const { settings, lastCheck } = await state.load();
    const due = lastDue(clock.now(), settings.checkTime, deps.zone(), deps.delayMs);
    if (lastCheck && Date.parse(lastCheck.at) >= due) return;
    const status = await updates.check(signal);
    const security = (status.lastCheck?.distribution ?? []).filter((u) => u.security).map((u) => u.name);
    logger.info('daily update check', {
      logCode: 'updates.dailyCheck',
      component: 'updates',
      available: status.lastCheck?.available?.version ?? null,
      security: security.length,
    });
    if (!settings.automaticSecurity || security.length === 0) return;
    if (updates.running) {
      logger.info('security updates wait: an update or a restore runs', {
        logCode: 'updates.securityWaits',
        component: 'updates',
        jobId: updates.running.jobId,
      });
      return;
    }
    const job = await updates.install(null, { box: 'none', distribution: true }, security);
    logger.info('installing security updates', { logCode: 'updates.installingSecurity', component: 'updates', jobId: job.id, packages: security });
  };
}
