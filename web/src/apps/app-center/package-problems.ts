import type { Language } from '../../../../shared/src/api/system/system.ts';
import type { ProblemDetails } from '../../../../shared/src/errors/index.ts';
import { formatBytes } from '../../lib/bytes.ts';
import { enMessages } from '../../lib/i18n/dictionaries.ts';
import { format, problemMessage, type MessageKey } from '../../lib/i18n/messages.ts';

/**
 * The refusals of an uploaded package carry a `reason` (and the entry or limit it is about);
 * each reason has its own sentence under appCenter.refused/invalid/icon, so an administrator
 * reads which entry was refused and why. A reason this UI does not know yet falls back to the
 * code's general sentence, which still names it.
 */
const reasonKeys: Partial<Record<string, string>> = {
  'app.package.entry_refused': 'appCenter.refused.',
  'app.package.invalid': 'appCenter.invalid.',
  'app.package.icon_invalid': 'appCenter.icon.',
};

/** Limits of `app.package.invalid` that are sizes in bytes; `tooManyEntries` counts entries. */
const byteLimits = new Set(['tooLarge', 'trailingData', 'manifestTooLarge', 'iconTooLarge']);

function isKey(key: string): key is MessageKey {
  return Object.hasOwn(enMessages, key);
}

/** `manifestInvalid` lists each field the manifest schema refused: "path: message". */
function manifestErrors(errors: unknown): string {
  if (!Array.isArray(errors)) return '';
  return errors.map((e: { path?: string; message?: string }) => (e.path ? `${e.path}: ${e.message ?? ''}` : (e.message ?? ''))).join('; ');
}

/** The sentence for a problem of the App Center, in `language`. */
export function appProblemMessage(language: Language, problem: ProblemDetails): string {
  const prefix = reasonKeys[problem.code];
  const params = problem.params ?? {};
  const reason = typeof params.reason === 'string' ? params.reason : '';
  const key = `${prefix}${reason}`;
  if (!prefix || !isKey(key)) return problemMessage(language, problem);
  const limit = typeof params.limit === 'number' ? params.limit : null;
  return format(language, key, {
    entry: params.entry,
    limit: limit === null ? undefined : byteLimits.has(reason) ? formatBytes(limit, language) : limit.toLocaleString(language),
    errors: manifestErrors(params.errors),
  });
}
