import { fromWallTime, wallTime } from '../../core/zoned-time.ts';

/** The daily check: HH:mm in the box's zone plus this box's own delay, so boxes do not all ask the servers at once. */
export interface DailyCheck {
  dailyTime: string;
  delayMinutes: number;
  zone: string;
}

function onDay(ms: number, dayOffset: number, check: DailyCheck): number {
  const today = wallTime(ms, check.zone);
  const [hour, minute] = check.dailyTime.split(':').map(Number) as [number, number];
  const at = fromWallTime({ year: today.year, month: today.month, day: today.day + dayOffset, hour, minute, second: 0 }, check.zone);
  return at + check.delayMinutes * 60_000;
}

/** The first check after `now`. */
export function nextCheckAt(now: number, check: DailyCheck): number {
  for (const day of [-1, 0, 1, 2]) {
    const at = onDay(now, day, check);
    if (at > now) return at;
  }
  return onDay(now, 2, check);
}

/** The last check due at or before `now`: a check is owed when the last one ran before it. */
export function lastDueAt(now: number, check: DailyCheck): number {
  for (const day of [1, 0, -1, -2]) {
    const at = onDay(now, day, check);
    if (at <= now) return at;
  }
  return onDay(now, -2, check);
}

/** A delay of 0 to 59 minutes, chosen once per box and kept with its settings. */
export const chooseDelayMinutes = (random: () => number = Math.random) => Math.floor(random() * 60);
