/**
 * A wall-clock time typed in a `datetime-local` field (`2026-11-01T08:30`), read in the box's time
 * zone: the browser reads such a value in its own zone, which may not be the box's, while the
 * desktop shows every time in the box's (lib/dates.ts). Answers epoch milliseconds, NaN for a
 * malformed value; with no zone given, the browser's.
 */
export function wallTimeIn(text: string, timeZone?: string | null): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!match) return NaN;
  if (!timeZone) return new Date(text).getTime();
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  // The zone's offset at the first guess, then at the result: across a change of daylight saving
  // time the offset at the moment itself decides.
  const first = asUtc - offsetAt(asUtc, timeZone);
  return asUtc - offsetAt(first, timeZone);
}

/** How far the zone's wall clock is ahead of UTC at `ms`, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(ms);
  const field = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(field('year'), field('month') - 1, field('day'), field('hour'), field('minute'), field('second'));
  return wall - Math.floor(ms / 1000) * 1000;
}
