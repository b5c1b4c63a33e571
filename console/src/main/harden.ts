import { app, shell, type WebContents } from 'electron';
import { allowPermission, linkAction, sameOrigin } from '../node/shell-policy.ts';

/** Each contents' own origin: the console's page, or the box its window shows. Contents without one go nowhere. */
const origins = new WeakMap<WebContents, string>();

/** Gives a window's contents its origin; what it may navigate to and ask for follows from it. */
export function setOwnOrigin(contents: WebContents, origin: string): void {
  origins.set(contents, origin);
}

const originOf = (contents: WebContents | null) => (contents ? (origins.get(contents) ?? null) : null);

/** A subframe's empty documents (an iframe before its src, srcdoc) are no navigation away. */
const emptyFrame = (url: string) => url === 'about:blank' || url === 'about:srcdoc';

/**
 * Electron's security checklist for every contents the app ever makes (windows, popups, frames'
 * hosts), applied as each is created rather than to the first window only: navigation, redirects,
 * frames and new windows stay on the contents' own origin; http(s) links elsewhere open in the
 * user's browser; no webviews; permissions as allowPermission says (shell-policy.ts).
 */
export function hardenEveryContents(): void {
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
}

export function hardenContents(contents: WebContents): void {
  const stays = (url: string) => {
    const own = originOf(contents);
    return own !== null && sameOrigin(own, url);
  };
  contents.on('will-navigate', (event) => {
    if (!stays(event.url)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!stays(event.url) && (event.isMainFrame || !emptyFrame(event.url))) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!stays(event.url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    const own = originOf(contents);
    const action = own === null ? 'deny' : linkAction(own, url);
    if (action === 'external') void shell.openExternal(url);
    if (action !== 'allow') return { action: 'deny' };
    return { action: 'allow', overrideBrowserWindowOptions: { webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false } } };
  });
  // A window a page opened on its own origin is held to that origin too.
  contents.on('did-create-window', (child) => {
    const own = originOf(contents);
    if (own) setOwnOrigin(child.webContents, own);
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.session.setPermissionRequestHandler((asking, permission, callback, details) =>
    callback(allowPermission({ permission, requestingUrl: details.requestingUrl ?? asking.getURL(), contentsOrigin: originOf(asking) })),
  );
  contents.session.setPermissionCheckHandler((asking, permission, requestingOrigin) =>
    allowPermission({ permission, requestingUrl: requestingOrigin, contentsOrigin: originOf(asking) }),
  );
}
