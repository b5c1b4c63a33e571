import type { WindowManager } from './window-manager.svelte.ts';

/**
 * The desktop's window shortcuts (listed for users in Settings → Keyboard). Chosen so no
 * browser or common OS binding is taken: Alt+` / Alt+Shift+` cycle windows (the key left of 1,
 * by its position, so also on German keyboards), Alt+W closes, Alt+Shift+arrows snap,
 * maximise and restore, Alt+Shift+M minimises.
 */
export function handleWindowKey(event: KeyboardEvent, wm: WindowManager): void {
  if (!event.altKey || event.ctrlKey || event.metaKey) return;
  const focused = wm.focused;
  if (event.code === 'Backquote') {
    event.preventDefault();
    wm.cycle(event.shiftKey ? -1 : 1);
    return;
  }
  if (!focused) return;
  if (event.code === 'KeyW' && !event.shiftKey) {
    event.preventDefault();
    wm.close(focused.id);
    return;
  }
  if (!event.shiftKey) return;
  const action: Record<string, () => void> = {
    ArrowLeft: () => wm.setMode(focused.id, 'left'),
    ArrowRight: () => wm.setMode(focused.id, 'right'),
    ArrowUp: () => wm.setMode(focused.id, 'maximised'),
    ArrowDown: () => wm.setMode(focused.id, 'normal'),
    KeyM: () => wm.minimise(focused.id),
  };
  const run = action[event.code];
  if (run) {
    event.preventDefault();
    run();
  }
}
