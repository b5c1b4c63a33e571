import type { Notification } from '../../../../shared/src/api/notifications/notifications.ts';
import type { Language } from '../../../../shared/src/api/system/system.ts';
import type { ProblemDetails } from '../../../../shared/src/errors/index.ts';
import { dictionaries, format, problemMessage, type MessageKey } from '../../lib/i18n/messages.ts';
import { jobTitleText } from '../../lib/job-title.ts';

const unfilled = /\{\w+\}/;

/** One part of a coded notification in the user's language; null when this UI has no full translation of it. */
function translated(language: Language, key: string, params: Notification['params']): string | null {
  if (!Object.hasOwn(dictionaries.en, key)) return null;
  const text = format(language, key as MessageKey, params ?? {});
  return unfilled.test(text) ? null : text;
}

/**
 * What a notification says: the translation of its code (`notification.<code>.title` and `.body`)
 * with its params, else (no code, or one this UI does not know yet) the English title and body it came with.
 */
export function notificationText(language: Language, item: Pick<Notification, 'code' | 'params' | 'title' | 'body'>): { title: string; body: string } {
  if (!item.code) return { title: item.title, body: item.body };
  const params = item.code === 'jobs.failed' && item.params ? jobFailedParams(language, item.params) : item.params;
  return {
    title: translated(language, `notification.${item.code}.title`, params) ?? item.title,
    body: translated(language, `notification.${item.code}.body`, params) ?? item.body,
  };
}

/** A failed job's notification names the job by its title and says why, both in the reader's language. */
function jobFailedParams(language: Language, params: Record<string, string | number>): Record<string, string | number> {
  const { job, problem, jobId: _jobId, ...titleParams } = params;
  const code = String(job ?? '');
  const problemText = problemMessage(language, { code: String(problem ?? ''), title: '', detail: '', status: 500, type: 'about:blank' } as ProblemDetails);
  return { task: jobTitleText(language, { code, params: titleParams }, code), problem: problemText || format(language, 'error.jobs.job.failed') };
}
