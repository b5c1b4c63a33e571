import type { DiskVerdictReason } from '../../../../shared/src/api/storage/storage.ts';
import type { MessageKey, MessageParams } from '../../lib/i18n/messages.ts';
import { formatBytes } from '../../lib/bytes.ts';

/** The message key and values of one reason of the disk guard, so the reason reads as a sentence. */
export function reasonMessage(reason: DiskVerdictReason, locale: string): [MessageKey, MessageParams] {
  if (reason.reason === 'tooSmall') {
    // The guard writes "<size> bytes, at least <min> needed".
    const sizes = /^(\d+) bytes, at least (\d+)/.exec(reason.detail);
    if (sizes) return ['storage.disk.reason.tooSmall', { size: formatBytes(Number(sizes[1]), locale), min: formatBytes(Number(sizes[2]), locale) }];
  }
  return [`storage.disk.reason.${reason.reason}`, { detail: reason.detail }];
}
