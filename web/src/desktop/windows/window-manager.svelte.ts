import type { WindowPreference, WindowPreferenceRequest } from '../../../../shared/src/api/desktop/desktop.ts';
import { clampRect, modeRect, placeWindow, type Area, type Rect, type WindowMode } from './geometry.ts';
import { desktopUrl, isSaved, parseDesktopUrl, restoreWindows, type DesktopHistoryState, type SavedWindow, type WindowRef } from './url-state.ts';

export interface AppWindow {
  id: string;
  appId: string;
  route: string;
  /** Set by the app (setTitle); the app's own title until then. */
  title: string | null;
  /** Its own place, kept while maximised or snapped so restoring brings it back. */
  rect: Rect;
  mode: WindowMode;
  minimised: boolean;
  z: number;
}

export interface WindowManagerDeps {
  /** Default size of an app's first window. */
  defaultSize(appId: string): { width: number; height: number };
  /** Saves where an app's windows open next time (PUT /api/desktop/preferences/{appId}). */
  savePreference(appId: string, preference: WindowPreferenceRequest): void;
}

let nextId = 1;

/**
 * The open windows of this tab: stacking order, focus, places and modes, mirrored into the URL
 * (see url-state.ts). Components render from `windows` and call the actions below.
 */
export class WindowManager {
  windows = $state<AppWindow[]>([]);
  focusedId = $state<string | null>(null);
  area = $state<Area>({ width: 1280, height: 752 });
  /** Phone size: one full-screen window at a time. */
  compact = $state(false);
  private preferences = new Map<string, WindowPreference>();
  /** Windows opened at phone size: their rect is a phone's, not a place on a desktop. */
  private placedOnPhone = new Set<string>();
  private top = 0;
  private restoring = false;

  constructor(private readonly deps: WindowManagerDeps) {}

  setPreferences(list: WindowPreference[]): void {
    this.preferences = new Map(list.map((p) => [p.appId, p]));
  }

  /** One app's preference saved elsewhere (another tab or device): its next window opens there. */
  setPreference(preference: WindowPreference): void {
    this.preferences.set(preference.appId, preference);
  }

  get focused(): AppWindow | null {
    return this.windows.find((w) => w.id === this.focusedId) ?? null;
  }

  /** Bottom of the stack first. */
  get stack(): AppWindow[] {
    return [...this.windows].sort((a, b) => a.z - b.z);
  }

  /** The rect a window is shown at now. */
  shownRect(win: AppWindow): Rect {
    return modeRect(this.compact ? 'maximised' : win.mode, win.rect, this.area);
  }

  /**
   * The workspace's size and whether it is a phone's. At phone size every window fills the screen,
   * so a rect is not fitted to it; once the workspace is a desktop's again, windows opened on the
   * phone get a place of their own in the cascade and the others are kept inside it.
   */
  fit(area: Area, compact: boolean): void {
    this.area = area;
    this.compact = compact;
    if (compact) return;
    const placed: Rect[] = [];
    for (const win of this.windows) {
      if (this.placedOnPhone.delete(win.id)) win.rect = this.place(win.appId, placed);
      else win.rect = clampRect(win.rect, area);
      if (win.mode === 'normal') placed.push(win.rect);
    }
  }

  open(appId: string, route = '', saved?: SavedWindow): string {
    const preference = this.preferences.get(appId);
    // Opened order: the cascade steps on from the window opened last.
    const placed = this.windows.filter((w) => w.mode === 'normal').map((w) => w.rect);
    // A phone keeps a saved rect as it is: clamping it to the phone's width would shrink it for the desktop too.
    const rect = saved ? (this.compact ? saved.rect : clampRect(saved.rect, this.area)) : this.place(appId, placed);
    const mode: WindowMode = saved?.mode ?? (preference?.maximised ? 'maximised' : 'normal');
    const win: AppWindow = { id: `w${nextId++}`, appId, route, title: null, rect, mode, minimised: saved?.minimised ?? false, z: ++this.top };
    if (this.compact && !saved) this.placedOnPhone.add(win.id);
    this.windows.push(win);
    if (!win.minimised) this.focusedId = win.id;
    this.syncUrl('push');
    return win.id;
  }

  focus(id: string): void {
    const win = this.find(id);
    if (!win) return;
    win.minimised = false;
    if (this.focusedId === id && win.z === this.top) return;
    win.z = ++this.top;
    this.focusedId = id;
    this.syncUrl('replace');
  }

  close(id: string): void {
    this.windows = this.windows.filter((w) => w.id !== id);
    this.placedOnPhone.delete(id);
    if (this.focusedId === id) this.focusedId = this.topVisible()?.id ?? null;
    this.syncUrl('push');
  }

  minimise(id: string): void {
    const win = this.find(id);
    if (!win) return;
    win.minimised = true;
    if (this.focusedId === id) this.focusedId = this.topVisible()?.id ?? null;
    this.syncUrl('replace');
  }

  /** Taskbar button: focus a background window, minimise the focused one, bring back a minimised one. */
  toggleFromTaskbar(id: string): void {
    const win = this.find(id);
    if (win && !win.minimised && this.focusedId === id && !this.compact) this.minimise(id);
    else this.focus(id);
  }

  toggleMaximise(id: string): void {
    const win = this.find(id);
    if (!win) return;
    this.setMode(id, win.mode === 'maximised' ? 'normal' : 'maximised');
  }

  setMode(id: string, mode: WindowMode): void {
    const win = this.find(id);
    if (!win) return;
    win.mode = mode;
    this.focus(id);
    this.commit(id);
  }

  /** Moves or resizes a window while dragging; `commit` saves once the drag ends. */
  setRect(id: string, rect: Rect): void {
    const win = this.find(id);
    if (!win) return;
    win.rect = rect;
    win.mode = 'normal';
  }

  /** Saves a window's place: in the URL's history state and as the app's window preference. */
  commit(id: string): void {
    const win = this.find(id);
    if (!win) return;
    this.syncUrl('replace');
    // A phone's full-screen rect is no place for the app's windows on a desktop.
    if (this.compact) return;
    const { x, y, width, height } = win.rect;
    this.deps.savePreference(win.appId, { x, y, width, height, maximised: win.mode === 'maximised' });
    this.preferences.set(win.appId, { appId: win.appId, x, y, width, height, maximised: win.mode === 'maximised', updatedAt: new Date().toISOString() });
  }

  navigate(id: string, route: string): void {
    const win = this.find(id);
    if (!win || win.route === route) return;
    win.route = route;
    this.syncUrl(this.focusedId === id ? 'push' : 'replace');
  }

  setTitle(id: string, title: string): void {
    const win = this.find(id);
    if (win) win.title = title;
  }

  /** Alt+`: the next window down the stack (minimised ones too) comes to the front. */
  cycle(direction: 1 | -1): string | null {
    const stack = this.stack;
    if (stack.length === 0) return null;
    const at = stack.findIndex((w) => w.id === this.focusedId);
    // Forward takes the window right under the focused one; backward brings the bottom one up.
    const next = direction === 1 ? stack[(at <= 0 ? stack.length : at) - 1] : stack[0];
    if (!next) return null;
    this.focus(next.id);
    return next.id;
  }

  /** Rebuilds the windows from the URL and its history state (page load, back and forward). */
  restore(location: { pathname: string; search: string }, state: unknown): void {
    const saved = (state as DesktopHistoryState | null)?.windows ?? [];
    this.windows = [];
    this.focusedId = null;
    this.restoring = true;
    for (const entry of restoreWindows(parseDesktopUrl(location.pathname, location.search), saved)) {
      this.open(entry.appId, entry.route, isSaved(entry) ? entry : undefined);
    }
    this.restoring = false;
    this.syncUrl('replace');
  }

  /** A new window's rect: the app's saved place and size, else its default size in the cascade. */
  private place(appId: string, placed: readonly Rect[]): Rect {
    const preference = this.preferences.get(appId);
    return placeWindow(preference ?? this.deps.defaultSize(appId), preference ?? null, placed, this.area);
  }

  private find(id: string): AppWindow | undefined {
    return this.windows.find((w) => w.id === id);
  }

  private topVisible(): AppWindow | undefined {
    return this.stack.filter((w) => !w.minimised).at(-1);
  }

  private syncUrl(how: 'push' | 'replace'): void {
    if (this.restoring) return;
    const stack = this.stack;
    const refs: WindowRef[] = stack.map((w) => ({ appId: w.appId, route: w.route }));
    const focusedAt = stack.findIndex((w) => w.id === this.focusedId);
    const state: DesktopHistoryState = {
      windows: stack.map((w) => ({ appId: w.appId, route: w.route, rect: { ...w.rect }, mode: w.mode, minimised: w.minimised })),
    };
    const url = desktopUrl(refs, focusedAt < 0 ? null : (refs[focusedAt] ?? null));
    const same = url === location.pathname + location.search;
    if (how === 'push' && !same) history.pushState(state, '', url);
    else history.replaceState(state, '', url);
  }
}
