import { i18n } from './i18n/i18n.svelte.ts';

/**
 * The desktop's one way to show a point in time: the user's language in the box's region
 * (i18n.locale) and the box's time zone, so the clock, schedules, logs and file times agree.
 * Every app formats dates through here; a new format is a new kind below, not an ad-hoc Intl call.
 */
const kinds = {
  /** A date with its time: file times, job and log times, certificates, updates. */
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  /** Where seconds matter: log entries. */
  dateTimeSeconds: { dateStyle: 'medium', timeStyle: 'medium' },
  date: { dateStyle: 'medium' },
  /** Hours and minutes: the taskbar clock, a time within today. */
  time: { hour: '2-digit', minute: '2-digit' },
  timeSeconds: { timeStyle: 'medium' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateKind = keyof typeof kinds;
export type DateValue = string | number | Date;

const cache = new Map<string, Intl.DateTimeFormat>();

function formatter(kind: DateKind): Intl.DateTimeFormat {
  // Reading both makes templates follow a change of language, region or zone.
  const { locale, timeZone } = i18n;
  const key = `${kind}|${locale}|${timeZone ?? ''}`;
  let found = cache.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, { ...kinds[kind], ...(timeZone ? { timeZone } : {}) });
    cache.set(key, found);
  }
  return found;
}

/** `value` (an ISO string, epoch milliseconds or a Date) in the one format of its kind; a dash for none (a schedule that never ran). */
export function formatDate(value: DateValue | null | undefined, kind: DateKind = 'dateTime'): string {
  if (value === null || value === undefined || value === '') return '–';
  return formatter(kind).format(typeof value === 'string' || typeof value === 'number' ? new Date(value) : value);
}

/** The box's zone as people read it: `Europe/Berlin (Central European Time)`; the browser's when unknown. */
export function zoneLabel(at: Date = new Date()): string {
  const zone = i18n.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const long = new Intl.DateTimeFormat(i18n.locale, { timeZone: zone, timeZoneName: 'long' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
  return long && long !== zone ? `${zone} (${long})` : zone;
}
