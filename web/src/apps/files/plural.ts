import { i18n, t } from '../../lib/i18n/i18n.svelte.ts';
import type { MessageKey, MessageParams } from '../../lib/i18n/messages.ts';

type PluralBase<K> = K extends `${infer B}.one` ? (`${B}.other` extends MessageKey ? B : never) : never;

/** English and German both have one and other: `<base>.one` for 1, `<base>.other` otherwise; the count is formatted for the language. */
export function tn(base: PluralBase<MessageKey>, count: number, params: MessageParams = {}): string {
  const shown = new Intl.NumberFormat(i18n.language).format(count);
  return t(`${base}.${count === 1 ? 'one' : 'other'}` as MessageKey, { count: shown, ...params });
}
