import type { FileEntry } from '../../../../shared/src/api/files/files.ts';
import { t } from '../../lib/i18n/i18n.svelte.ts';

/** The context menu's entries: what the toolbar offers for the chosen entries, disabled where the share is read-only. */
export function entryMenuItems(chosen: FileEntry[], writable: boolean, canAddToDesktop: boolean): { id: string; label: string; disabled?: boolean }[] {
  const one = chosen.length === 1 ? chosen[0] : undefined;
  return [
    ...(one ? [{ id: 'open', label: t('files.action.open') }] : []),
    ...(one?.type === 'file' ? [{ id: 'download', label: t('files.action.download') }] : []),
    { id: 'rename', label: t('files.action.rename'), disabled: !writable || !one },
    { id: 'copy', label: t('files.action.copy') },
    { id: 'cut', label: t('files.action.cut'), disabled: !writable },
    { id: 'copyTo', label: t('files.action.copyTo') },
    { id: 'moveTo', label: t('files.action.moveTo'), disabled: !writable },
    { id: 'delete', label: t('files.action.delete'), disabled: !writable },
    ...(canAddToDesktop ? [{ id: 'addToDesktop', label: t('files.action.addToDesktop') }] : []),
  ];
}
