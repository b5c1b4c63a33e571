import type { LogEntry } from '../../../../shared/src/api/logs/logs.ts';
import type { Language } from '../../../../shared/src/api/system/system.ts';
import { dictionaries, format, type MessageKey } from '../../lib/i18n/messages.ts';

const unfilled = /\{\w+\}/;

/** The dictionary key of a log message code. */
export const logMessageKey = (code: string) => `logs.msg.${code}`;

/** A param that is itself a code (`how: 'totp'`) reads as `logs.param.<name>.<value>` where the dictionaries have it. */
function paramText(language: Language, name: string, value: string | number | boolean): string | number | boolean {
  const key = `logs.param.${name}.${String(value)}`;
  return Object.hasOwn(dictionaries.en, key) ? format(language, key as MessageKey) : value;
}

/**
 * An entry's message in the reader's language: the text of its code with its params; the stored
 * (English) message for an entry without a code (older entries, the journal, apps), a code this
 * UI does not know (a newer daemon's) or params the text needs and the entry lacks.
 */
export function logMessageText(language: Language, entry: Pick<LogEntry, 'code' | 'params' | 'message'>): string {
  if (entry.code === null) return entry.message;
  const key = logMessageKey(entry.code);
  if (!Object.hasOwn(dictionaries.en, key)) return entry.message;
  const params = Object.fromEntries(Object.entries(entry.params).map(([name, value]) => [name, paramText(language, name, value)]));
  const text = format(language, key as MessageKey, params);
  return unfilled.test(text) ? entry.message : text;
}
