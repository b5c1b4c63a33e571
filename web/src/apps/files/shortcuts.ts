/** What a key press asks the folder view to do; movement keys are the list's own. */
export type FolderCommand = 'open' | 'parent' | 'rename' | 'delete' | 'deleteForGood' | 'newFolder' | 'copy' | 'cut' | 'paste' | 'copyTo' | 'moveTo' | 'help';

/** `code` (the physical key) is optional: Alt+C gives key "ç" on a Mac, but code "KeyC". */
type Keys = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'> & { code?: string };

/** The Files app's shortcuts (listed in its help dialog); Cmd counts as Ctrl on a Mac. */
export function shortcutOf(event: Keys): FolderCommand | null {
  const ctrl = event.ctrlKey || event.metaKey;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (key === 'Enter' && !ctrl) return 'open';
  if (key === 'Backspace' || (event.altKey && key === 'ArrowUp')) return 'parent';
  if (key === 'F2') return 'rename';
  if (key === 'Delete') return event.shiftKey ? 'deleteForGood' : 'delete';
  if (ctrl && event.shiftKey && key === 'n') return 'newFolder';
  // Alt, not Ctrl+Shift: Chrome keeps Ctrl+Shift+C (inspect) and Ctrl+Shift+M (profiles) for itself.
  if (event.altKey && !ctrl && !event.shiftKey) {
    if (key === 'c' || event.code === 'KeyC') return 'copyTo';
    if (key === 'm' || event.code === 'KeyM') return 'moveTo';
  }
  if (ctrl && !event.shiftKey && !event.altKey) {
    const commands: Record<string, FolderCommand> = { c: 'copy', x: 'cut', v: 'paste' };
    return commands[key] ?? null;
  }
  if (key === 'F1' || key === '?') return 'help';
  return null;
}
