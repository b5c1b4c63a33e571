import { requestIdPattern, type LogEntry, type LogFilterQuery, type LogLevel } from '../../../../shared/src/api/logs/logs.ts';
import type { Language } from '../../../../shared/src/api/system/system.ts';
import { codeWords, logMessageText } from './log-message.ts';
import { wallTimeIn } from '../../lib/zone-time.ts';

/** The time ranges offered in the filter bar; `custom` uses the chosen from/to. */
export const rangePresets = ['15m', '1h', '24h', '7d', '30d', 'custom'] as const;
export type RangePreset = (typeof rangePresets)[number];

const presetMs: Record<Exclude<RangePreset, 'custom'>, number> = {
  '15m': 15 * 60_000,
  '1h': 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
  '30d': 30 * 24 * 3_600_000,
};

/** What the user chose in the filter bar. */
export interface LogFilters {
  preset: RangePreset;
  /** `datetime-local` values (the browser's time zone), used when preset is custom. */
  customFrom: string;
  customTo: string;
  levels: LogLevel[];
  sources: string[];
  search: string;
}

export const defaultFilters = (): LogFilters => ({ preset: '24h', customFrom: '', customTo: '', levels: [], sources: [], search: '' });

/**
 * The absolute range of the filters at `now`; a preset always ends now. The custom times are wall
 * clock times in `timeZone` (the box's, as the entries are shown), the browser's when null.
 */
export function timeRange(filters: LogFilters, now: number, timeZone?: string | null): { from: number | null; to: number | null } {
  if (filters.preset !== 'custom') return { from: now - presetMs[filters.preset], to: now };
  const parse = (text: string) => {
    const ms = wallTimeIn(text, timeZone);
    return Number.isNaN(ms) ? null : ms;
  };
  return { from: parse(filters.customFrom), to: parse(filters.customTo) };
}

/** The API query of the filters (list, export, histogram), read in `language` (the search also matches the entries' texts in it). */
export function toQuery(filters: LogFilters, now: number, language: Language, timeZone?: string | null): LogFilterQuery {
  const { from, to } = timeRange(filters, now, timeZone);
  const query: LogFilterQuery = {};
  if (from !== null) query.from = new Date(from).toISOString();
  if (to !== null) query.to = new Date(to).toISOString();
  if (filters.levels.length) query.level = [...filters.levels];
  if (filters.sources.length) query.source = [...filters.sources];
  const search = filters.search.trim();
  if (search) query.search = search;
  const codes = search ? codeWords(language, search) : [];
  if (codes.length) query.codeWords = codes.join(',');
  return query;
}

/** Whether the range follows the clock, so entries from the live tail belong to it. */
export function isLive(filters: LogFilters): boolean {
  return filters.preset !== 'custom' || filters.customTo === '';
}

/** Words as the box's full-text index splits them: letters and digits, folded. */
function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * Whether a live-tail entry belongs to the list under these filters. Mirrors the box's search
 * closely enough for the tail (words as prefixes anywhere in message or fields, or the exact
 * request id); the next reload asks the box itself.
 */
export function entryMatches(entry: LogEntry, filters: LogFilters, now: number, language: Language, timeZone?: string | null): boolean {
  const { from } = timeRange(filters, now, timeZone);
  const time = Date.parse(entry.time);
  if (from !== null && time < from) return false;
  if (filters.levels.length && !filters.levels.includes(entry.level)) return false;
  if (filters.sources.length && !filters.sources.includes(entry.source)) return false;
  const search = filters.search.trim();
  if (!search) return true;
  if (requestIdPattern.test(search) && entry.requestId === search) return true;
  const haystack = words(`${entry.message} ${logMessageText(language, entry)} ${JSON.stringify(entry.fields)}`);
  return words(search).every((w) => haystack.some((h) => h.startsWith(w)));
}

const requestRoute = /^request\/(.+)$/;

/** The app's sub-route: `request/<id>` shows every entry of one request. */
export function requestIdOfRoute(route: string): string | null {
  const id = requestRoute.exec(route)?.[1];
  return id && requestIdPattern.test(id) ? id : null;
}

/** Request ids are URL-safe by their pattern, so the route (and a link to it) needs no escaping. */
export function routeOfRequest(requestId: string): string {
  return `request/${requestId}`;
}
