import type { Notification } from '../../../../shared/src/api/notifications.ts';
import type { Language } from '../../../../shared/src/api/system.ts';
import { dictionaries, format, type MessageKey } from '../../lib/i18n/messages.ts';

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
  return {
    title: translated(language, `notification.${item.code}.title`, item.params) ?? item.title,
    body: translated(language, `notification.${item.code}.body`, item.params) ?? item.body,
  };
}
