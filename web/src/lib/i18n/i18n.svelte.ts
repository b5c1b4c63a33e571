import type { Language } from '../../../../shared/src/api/system/system.ts';
import { errorMessage, format, formatCount, type MessageKey, type MessageParams, type PluralBase } from './messages.ts';

let current = $state<Language>('en');
let region = $state<string | null>(null);
let timeZone = $state<string | undefined>(undefined);

/** The UI's language; setting it re-renders every text and the page's `lang`. */
export const i18n = {
  get language(): Language {
    return current;
  },
  set language(language: Language) {
    current = language;
    document.documentElement.lang = language;
  },
  /** The box's region (System, Region), or null to follow the language. */
  set region(code: string | null) {
    region = code;
  },
  /** The box's time zone (System, Time): every date and the clock show the box's time; the browser's until known. */
  get timeZone(): string | undefined {
    return timeZone;
  },
  set timeZone(zone: string | undefined) {
    timeZone = zone;
  },
  /** What dates and numbers are formatted with: the language in the box's region (`de-AT`), else the language alone. */
  get locale(): string {
    return region ? `${current}-${region}` : current;
  },
};

/** Every visible string goes through here; reading `current` makes templates follow the language. */
export function t(key: MessageKey, params?: MessageParams): string {
  return format(current, key, params);
}

/** A counted message in the plural form the count takes in the current language (`<base>.one`, `<base>.other`). */
export function tn(base: PluralBase, count: number, params?: MessageParams): string {
  return formatCount(current, base, count, params);
}

/** A readable, localised message for anything an API call threw. */
export function describeError(err: unknown): string {
  return errorMessage(current, err);
}
