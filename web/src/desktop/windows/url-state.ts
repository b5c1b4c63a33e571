import type { Rect, WindowMode } from './geometry.ts';

/**
 * Windows are URLs. The focused window is the path, `/app/<appId>/<route>`; the other open
 * windows follow as `w` query parameters (bottom of the stack first), so a reload or a shared
 * link brings the same windows back. Their places and sizes ride along in history.state,
 * which survives a reload of the tab.
 */
export interface WindowRef {
  appId: string;
  route: string;
}

export interface SavedWindow extends WindowRef {
  rect: Rect;
  mode: WindowMode;
  minimised: boolean;
}

export interface DesktopHistoryState {
  windows: SavedWindow[];
}

const appIdShape = /^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$/;

function encodeRoute(route: string): string {
  return route.split('/').map(encodeURIComponent).join('/');
}

function decodeRoute(route: string): string {
  try {
    return route.split('/').map(decodeURIComponent).join('/');
  } catch {
    // A malformed escape: keep the text as it came rather than losing the window.
    return route;
  }
}

/** `appId/route` as one value, the form of a `w` parameter and of a path after `/app/`. */
export function refText(ref: WindowRef): string {
  return ref.route ? `${ref.appId}/${encodeRoute(ref.route)}` : ref.appId;
}

/** Reads `appId/route`; null for anything that does not name an app. */
export function parseRefText(text: string): WindowRef | null {
  const slash = text.indexOf('/');
  const appId = slash < 0 ? text : text.slice(0, slash);
  if (!appIdShape.test(appId)) return null;
  return { appId, route: slash < 0 ? '' : decodeRoute(text.slice(slash + 1)) };
}

export function windowPath(ref: WindowRef): string {
  return `/app/${refText(ref)}`;
}

/**
 * The window a desktop link opens: `/app/<appId>/<route>` (also `/apps/...`, the form
 * notification links use); null for other paths.
 */
export function parseAppPath(pathname: string): WindowRef | null {
  const match = /^\/apps?\/(.+)$/.exec(pathname);
  return match?.[1] ? parseRefText(match[1].replace(/\/$/, '')) : null;
}

/** The desktop URL of a stack of windows, bottom first and focused last. */
export function desktopUrl(stack: WindowRef[], focused: WindowRef | null): string {
  const params = new URLSearchParams();
  for (const ref of stack) if (ref !== focused) params.append('w', refText(ref));
  const query = params.toString();
  // Every window minimised: the desktop itself is the path, the windows stay in the query.
  const path = focused ? windowPath(focused) : '/';
  return query ? `${path}?${query}` : path;
}

/** The windows a URL names, bottom of the stack first, the focused one (the path) last. */
export function parseDesktopUrl(pathname: string, search: string): WindowRef[] {
  const refs: WindowRef[] = [];
  for (const text of new URLSearchParams(search).getAll('w')) {
    const ref = parseRefText(text);
    if (ref) refs.push(ref);
  }
  const focused = parseAppPath(pathname);
  if (focused) refs.push(focused);
  return refs;
}

/**
 * Pairs the windows of a URL with their saved places (in order, so two windows of one app at
 * the same route keep theirs); windows without one get null and are placed afresh.
 */
export function restoreWindows(refs: WindowRef[], saved: SavedWindow[]): (SavedWindow | WindowRef)[] {
  const pool = [...saved];
  return refs.map((ref) => {
    const at = pool.findIndex((s) => s.appId === ref.appId && s.route === ref.route);
    if (at < 0) return ref;
    const [found] = pool.splice(at, 1);
    return found ?? ref;
  });
}

export function isSaved(entry: SavedWindow | WindowRef): entry is SavedWindow {
  return 'rect' in entry;
}
