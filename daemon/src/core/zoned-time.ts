/** A wall-clock reading in some time zone; month 1 to 12, weekday 0 (Sunday) to 6. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();
const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formats.set(zone, f);
  }
  return f;
}

/** Whether the JavaScript runtime knows the zone (its ICU data can lag the box's tz database). */
export function knownToRuntime(zone: string): boolean {
  try {
    format(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `zone` at the instant `ms`. */
export function wallTime(ms: number, zone: string): WallTime {
  const parts = Object.fromEntries(
    format(zone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: weekdays.indexOf(parts.weekday ?? ''),
  };
}

const dayMs = 24 * 3600_000;
const asUtc = (w: Omit<WallTime, 'weekday'>): number => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** How far `zone` is ahead of UTC at the instant `ms`, whole seconds. */
function offsetAt(ms: number, zone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return asUtc(wallTime(whole, zone)) - whole;
}

/**
 * The instant a wall-clock reading names in `zone`. Fields may overflow (day 32 is the next
 * month's first, as with Date.UTC). A reading skipped by a clock change lands after it; one
 * that happens twice takes the first.
 */
export function fromWallTime(w: Omit<WallTime, 'weekday'>, zone: string): number {
  const local = asUtc(w);
  // Zones change their offset at most once a day: the offsets a day before and after cover both sides of a change.
  const before = local - offsetAt(local - dayMs, zone);
  const after = local - offsetAt(local + dayMs, zone);
  const fits = [before, after].filter((t) => asUtc(wallTime(t, zone)) === local);
  // Nothing fits in a skipped hour: the old offset carries the reading past the gap.
  return fits.length > 0 ? Math.min(...fits) : before;
}
