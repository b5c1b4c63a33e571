import type { Job, JobTitle } from '../../../shared/src/api/jobs/jobs.ts';
import type { Language } from '../../../shared/src/api/system/system.ts';
import { dictionaries, format, type MessageKey } from './i18n/messages.ts';

const unfilled = /\{\w+\}/;

/**
 * What a job does in the reader's language: `jobs.named.<code>` with its params, the `.one` or
 * `.other` form where a count decides and a `.to` form where the job has a target; a code this UI
 * does not know (a newer daemon's) shows the job's kind.
 */
export function jobTitleText(language: Language, title: JobTitle, kind: string): string {
  const base = `jobs.named.${title.code}`;
  const plural = typeof title.params.count === 'number' ? (new Intl.PluralRules(language).select(title.params.count) === 'one' ? '.one' : '.other') : '';
  const target = title.params.target === undefined ? '' : '.to';
  for (const key of [`${base}${target}${plural}`, `${base}${plural}`, base]) {
    if (!Object.hasOwn(dictionaries.en, key)) continue;
    const text = format(language, key as MessageKey, title.params);
    if (!unfilled.test(text)) return text;
  }
  return kind;
}

export const jobText = (language: Language, job: Pick<Job, 'title' | 'kind'>) => jobTitleText(language, job.title, job.kind);
