import type { GroupSummary } from '../../../../../shared/src/api/identity/groups.ts';
import type { Language } from '../../../../../shared/src/api/system/system.ts';
import { dictionaries, format, type MessageKey } from '../../../lib/i18n/messages.ts';

/** A group's description in the reader's language: a built-in one by its code, else the text an administrator wrote. */
export function groupDescription(language: Language, group: Pick<GroupSummary, 'description' | 'descriptionCode'>): string {
  if (group.descriptionCode === null) return group.description;
  const key = `controlPanel.groups.builtInDescription.${group.descriptionCode}`;
  return Object.hasOwn(dictionaries.en, key) ? format(language, key as MessageKey) : group.description;
}
