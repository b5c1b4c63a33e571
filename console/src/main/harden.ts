import { shell, type WebContents } from 'electron';

/**
 * Electron's security checklist for every window: navigation and new windows stay on the window's
 * own origin; links elsewhere open in the user's browser only when they are http(s); permission
 * requests (camera, notifications, ...) are refused.
 */
export function hardenContents(contents: WebContents, origin: URL): void {
  const same = (url: string) => {
    try {
      const target = new URL(url);
      return origin.protocol === 'file:' ? target.href.split('#')[0] === origin.href.split('#')[0] : target.origin === origin.origin;
    } catch {
      return false;
    }
  };
  contents.on('will-navigate', (event, url) => {
    if (!same(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!same(url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (same(url)) return { action: 'allow' };
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
}
