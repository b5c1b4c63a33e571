import { languages, type Language } from '../../../../shared/src/api/system/system.ts';
import { ApiError } from '../../../../shared/src/client.ts';
import type { ProblemDetails } from '../../../../shared/src/errors/index.ts';
import { formatBytes } from '../bytes.ts';
import { deMessages as de, enMessages as en } from './dictionaries.ts';

export type MessageKey = keyof typeof en;
export type MessageParams = Record<string, unknown>;
type Dictionary = Record<MessageKey, string>;

// Typing each language as a full Dictionary makes a missing translation a type error.
export const dictionaries: Record<Language, Dictionary> = { en, de };

const placeholder = /\{(\w+)\}/g;
const unfilled = /\{\w+\}/;

/** The text of a key in a language, with `{name}` placeholders filled from params. */
export function format(language: Language, key: MessageKey, params: MessageParams = {}): string {
  const template = dictionaries[language][key] ?? en[key] ?? key;
  return template.replace(placeholder, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
}

/** Keys that come in plural forms: `<base>.one`, `<base>.other` (the categories of `Intl.PluralRules` en and de use). */
export type PluralBase<K = MessageKey> = K extends `${infer B}.one` ? (`${B}.other` extends MessageKey ? B : never) : never;

/**
 * The form of a counted message for the language's plural rule ("1 group", "2 groups"), with the
 * count written as the language writes numbers; a category the dictionary lacks falls back to other.
 */
export function formatCount(language: Language, base: PluralBase, count: number, params: MessageParams = {}): string {
  const category = new Intl.PluralRules(language).select(count);
  const key = `${base}.${category}`;
  const shown = new Intl.NumberFormat(language).format(count);
  return format(language, isMessageKey(key) ? key : `${base}.other`, { count: shown, ...params });
}

function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

/**
 * A readable message for a problem: the translation of its code, else (a code this UI does not
 * know yet, or a translation whose values the problem lacks) the server's own detail or title.
 */
export function problemMessage(language: Language, problem: ProblemDetails): string {
  const params = withSizes(language, problem.params ?? {});
  // A reason code has its own sentence (`error.<code>.reason.<value>`); the raw code never reaches a reader.
  const reason = typeof params.reason === 'string' ? [`error.${problem.code}.reason.${params.reason}`] : [];
  // The full sentence, else its short form for a problem without some values (a size not known in advance).
  for (const key of [...reason, `error.${problem.code}`, `error.${problem.code}.short`]) {
    if (!isMessageKey(key)) continue;
    const text = format(language, key, params);
    if (!unfilled.test(text)) return text;
  }
  return problem.detail || problem.title;
}

/** Problem params that are sizes in bytes, shown as people read them ("19.9 MiB"). */
const sizeParams = new Set(['needed', 'free']);

function withSizes(language: Language, params: MessageParams): MessageParams {
  const out: MessageParams = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === null) continue;
    out[name] = sizeParams.has(name) && typeof value === 'number' ? formatBytes(value, language) : value;
  }
  return out;
}

/** A readable message for anything an API call threw. */
export function errorMessage(language: Language, err: unknown): string {
  if (err instanceof ApiError) return problemMessage(language, err.problem);
  // fetch rejects with a TypeError when the box cannot be reached at all.
  if (err instanceof TypeError) return format(language, 'error.network');
  return format(language, 'error.unknown');
}

/**
 * The UI's language: the signed-in user's; before sign-in the browser's first offered one,
 * else the box's system language (GET /api/setup).
 */
export function pickLanguage(userLanguage: Language | null, browserLanguages: readonly string[], systemLanguage: Language): Language {
  if (userLanguage) return userLanguage;
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0];
    const match = languages.find((l) => l === base);
    if (match) return match;
  }
  return systemLanguage;
}
