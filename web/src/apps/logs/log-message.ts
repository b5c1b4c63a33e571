import { codeWordsChars, codeWordsMax, phraseIn, searchTerms, textTokens } from '../../../../shared/src/api/logs/log-search.ts';
import type { JobTitle } from '../../../../shared/src/api/jobs/jobs.ts';
import type { LogEntry } from '../../../../shared/src/api/logs/logs.ts';
import type { Language } from '../../../../shared/src/api/system/system.ts';
import { dictionaries, format, type MessageKey } from '../../lib/i18n/messages.ts';
import { jobTitleText } from '../../lib/job-title.ts';

const unfilled = /\{\w+\}/;

/** The dictionary key of a log message code. */
export const logMessageKey = (code: string) => `logs.msg.${code}`;

/** A param that is itself a code (`how: 'totp'`) reads as `logs.param.<name>.<value>` where the dictionaries have it. */
function paramText(language: Language, name: string, value: string | number | boolean): string | number | boolean {
  const key = `logs.param.${name}.${String(value)}`;
  return Object.hasOwn(dictionaries.en, key) ? format(language, key as MessageKey) : value;
}

const quoted = (language: Language, text: string) => (language === 'de' ? `„${text}“` : `“${text}”`);

/** The job title a job's entry carries in its fields, when it has that shape. */
function taskOf(fields: LogEntry['fields'] | undefined): JobTitle | null {
  const task = fields?.task as { code?: unknown; params?: unknown } | undefined;
  if (typeof task?.code !== 'string' || typeof task.params !== 'object' || task.params === null) return null;
  return task as JobTitle;
}

/**
 * An entry's message in the reader's language: the text of its code with its params; the stored
 * (English) message for an entry without a code (older entries, the journal, apps), a code this
 * UI does not know (a newer daemon's) or params the text needs and the entry lacks.
 */
export function logMessageText(language: Language, entry: Pick<LogEntry, 'code' | 'params' | 'message'> & { fields?: LogEntry['fields'] }): string {
  if (entry.code === null) return entry.message;
  const key = logMessageKey(entry.code);
  if (!Object.hasOwn(dictionaries.en, key)) return entry.message;
  const params = Object.fromEntries(Object.entries(entry.params).map(([name, value]) => [name, paramText(language, name, value)]));
  // A job's entries carry its title (`task`): 'Task 12 “Copying 3 items to Family” started', not the id alone.
  const task = taskOf(entry.fields);
  if (task && params.jobId !== undefined) params.jobId = `${String(params.jobId)} ${quoted(language, jobTitleText(language, task, task.code))}`;
  const text = format(language, key as MessageKey, params);
  return unfilled.test(text) ? entry.message : text;
}

const codePrefix = logMessageKey('');

/** Each message code's words in a language: its text without the params' places (`{username}`). */
function codeTexts(language: Language): [string, string[]][] {
  return Object.keys(dictionaries.en)
    .filter((key) => key.startsWith(codePrefix))
    .map((key) => [key.slice(codePrefix.length), textTokens(format(language, key as MessageKey).replace(/\{\w+\}/g, ' '))]);
}

/**
 * The search's `codeWords`: for each word of the search, the codes whose text holds it in the
 * reader's language or in English, so `angemeldet` finds the entries shown as "admin hat sich
 * angemeldet" though the box keeps "admin signed in". The box numbers the words alike (searchTerms).
 */
export function codeWords(language: Language, search: string): string[] {
  const texts = language === 'en' ? codeTexts('en') : [...codeTexts(language), ...codeTexts('en')];
  const found = searchTerms(search).flatMap((term, i) => [...new Set(texts.filter(([, words]) => phraseIn(words, term)).map(([code]) => `${i}:${code}`))]);
  // As many as the box takes: 200 entries, 8000 characters joined.
  let chars = -1;
  return found.slice(0, codeWordsMax).filter((entry) => (chars += entry.length + 1) <= codeWordsChars);
}
