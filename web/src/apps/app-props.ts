import type { UserInfo } from '../../../shared/src/api/identity/auth.ts';

/**
 * What the window manager gives every app component it mounts in a window. An app is a
 * Svelte component `web/src/apps/<app>/<App>.svelte` taking these props; it knows nothing
 * of window frames, focus or positions.
 */
export interface AppProps {
  /** The window's id (several windows of one app may be open). */
  windowId: string;
  /** The app's own sub-route, the part of the window URL after `/app/<appId>/` (may be ''). */
  route: string;
  user: UserInfo;
  /** Changes the window's sub-route (kept in the URL so a reload brings the same view back). */
  navigate(route: string): void;
  /** Sets the window title shown in the frame and the taskbar. */
  setTitle(title: string): void;
  /** Closes this window. */
  close(): void;
  /** Opens another app's window, e.g. the Files app at a folder, or the Logs app at a request id. */
  openApp(appId: string, route?: string): void;
}
