import de from './de.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };

/** The console's own dictionaries; German must name every key English has (checked by the type). */
export type MessageKey = keyof typeof en;
const dictionaries: Record<'en' | 'de', Record<MessageKey, string>> = { en, de };

let current = $state<'en' | 'de'>(navigator.language.startsWith('de') ? 'de' : 'en');
document.documentElement.lang = current;

export const i18n = {
  get language(): 'en' | 'de' {
    return current;
  },
  set language(language: 'en' | 'de') {
    current = language;
    document.documentElement.lang = language;
  },
};

export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  return dictionaries[current][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** A page's message for a bridge failure: its code's text, else the code itself. */
export function describeError(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  const params = (err as { params?: Record<string, unknown> } | null)?.params ?? {};
  if (typeof code === 'string' && `error.${code}` in en) {
    const text = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
    return t(`error.${code}` as MessageKey, text);
  }
  return t('error.unknown', { code: typeof code === 'string' ? code : String(err) });
}
