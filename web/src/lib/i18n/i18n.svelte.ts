import type { Language } from '../../../../shared/src/api/system.ts';
import { errorMessage, format, type MessageKey, type MessageParams } from './messages.ts';

let current = $state<Language>('en');

/** The UI's language; setting it re-renders every text and the page's `lang`. */
export const i18n = {
  get language(): Language {
    return current;
  },
  set language(language: Language) {
    current = language;
    document.documentElement.lang = language;
  },
};

/** Every visible string goes through here; reading `current` makes templates follow the language. */
export function t(key: MessageKey, params?: MessageParams): string {
  return format(current, key, params);
}

/** A readable, localised message for anything an API call threw. */
export function describeError(err: unknown): string {
  return errorMessage(current, err);
}
