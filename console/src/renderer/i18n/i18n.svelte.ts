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

/**
 * One reason of the box's disk guard (`{ reason, detail }`) in the current language: the reason's
 * own words around its detail; the guard's English detail alone for a reason the console does not know.
 */
export function diskReason({ reason, detail }: { reason?: unknown; detail?: unknown }): string {
  const text = typeof detail === 'string' ? detail : '';
  const key = `wizard.disks.reason.${String(reason)}`;
  if (!(key in en)) return text || String(reason ?? '');
  // The guard writes "<size> bytes, at least <min> needed".
  const sizes = reason === 'tooSmall' ? /^(\d+) bytes, at least (\d+)/.exec(text) : null;
  if (sizes) return t('wizard.disks.reason.tooSmall', { size: gigabytes(Number(sizes[1])), min: gigabytes(Number(sizes[2])) });
  return t(key as MessageKey, { detail: text });
}

/** Sizes as the wizard lists disks. */
export const gigabytes = (bytes: number): string => `${Math.round(bytes / 1e9)} GB`;

/** A param as words: lists joined, a disk guard reason as diskReason says it. */
const word = (value: unknown): string => {
  if (Array.isArray(value)) return value.map(word).join(', ');
  if (value && typeof value === 'object') return diskReason(value as { reason?: unknown; detail?: unknown });
  return String(value);
};

const textParams = (params: unknown): Record<string, string> =>
  params && typeof params === 'object' ? Object.fromEntries(Object.entries(params).map(([k, v]) => [k, word(v)])) : {};

const known = (code: unknown): code is string => typeof code === 'string' && `error.${code}` in en;

/**
 * A box's refusal (its problem+json answer): the console's own words for the box's code where it
 * has them, else the box's title and detail as the box sent them. The code itself is no message:
 * pages show it apart, as a detail (problemCode).
 */
function describeRefusal(params: Record<string, unknown>): string {
  if (known(params.code)) return t(`error.${params.code}` as MessageKey, textParams(params.problemParams));
  const title = typeof params.title === 'string' ? params.title : '';
  const detail = typeof params.detail === 'string' && params.detail !== title ? params.detail : '';
  if (!title && !detail) return t('error.box.refused.unexplained', { status: String(params.status ?? '') });
  return t('error.box.refused', { reason: [title, detail].filter(Boolean).join(': ') });
}

/** A page's message for a bridge failure: its code's text, a box's refusal in words, else the code itself. */
export function describeError(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  const params = (err as { params?: Record<string, unknown> } | null)?.params ?? {};
  if (code === 'console.installer.refused' && 'status' in params) return describeRefusal(params);
  if (known(code)) return t(`error.${code}` as MessageKey, textParams(params));
  return t('error.unknown', { code: typeof code === 'string' ? code : String(err) });
}

/** The box's code behind a refusal, for a page to show beside the message as a detail; '' otherwise. */
export function problemCode(err: unknown): string {
  const { code, params } = (err ?? {}) as { code?: unknown; params?: Record<string, unknown> };
  return code === 'console.installer.refused' && typeof params?.code === 'string' ? params.code : '';
}
