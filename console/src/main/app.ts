import { app, BrowserWindow, dialog, ipcMain, Menu, type IpcMainInvokeEvent, type MenuItemConstructorOptions } from 'electron';
import path from 'node:path';
import type { ConsoleBridge } from '../bridge.ts';
import { BoxStore } from '../node/box-store.ts';
import { ConsoleError } from '../node/console-error.ts';
import { ConsoleService } from '../node/console-service.ts';
import { Discovery, type MdnsBrowser } from '../node/discovery.ts';
import { bonjourBrowser } from '../node/mdns-browser.ts';
import { consoleOrigin, consolePage, isConsoleFrame } from '../node/shell-policy.ts';
import { registerConsoleScheme, serveConsolePages } from './app-protocol.ts';
import { openBoxWindow, removeBoxPartition } from './box-window.ts';
import { hardenEveryContents, setOwnOrigin } from './harden.ts';

/** Where the built files are: dist/main/main.js beside dist/renderer and dist/preload. */
export interface ConsoleFiles {
  pagesDir: string;
  preload: string;
}

/** mDNS for discovery: bonjour-service on every interface; tests, which must not reach the machine's networks, pass a silent one. */
export type BrowserFactory = () => MdnsBrowser;

/** The menu: the usual editing and window roles; Reload and DevTools only in a development build. */
export function applicationMenu(packaged: boolean): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = packaged
    ? [{ role: 'togglefullscreen' }]
    : [{ role: 'reload' }, { role: 'toggleDevTools' }, { role: 'togglefullscreen' }];
  return [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' } as const] : [{ role: 'fileMenu' } as const]),
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
  ];
}

/**
 * The main process: one console window, one window per opened box; everything else is in
 * ../node. One instance per user (a second start focuses the first: two would browse mDNS twice
 * and overwrite each other's boxes.json). A failure at start is said in a dialog, not swallowed.
 */
export function startConsole(files: ConsoleFiles, browser: BrowserFactory = bonjourBrowser): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  registerConsoleScheme();
  hardenEveryContents();
  let window: BrowserWindow | null = null;
  app.on('second-instance', () => {
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app
    .whenReady()
    .then(() => {
      window = openConsole(files, browser);
    })
    .catch((err: unknown) => {
      dialog.showErrorBox('Cellar Console could not start', err instanceof Error ? err.message : String(err));
      app.exit(1);
    });
}

function openConsole(files: ConsoleFiles, browser: BrowserFactory): BrowserWindow {
  Menu.setApplicationMenu(Menu.buildFromTemplate(applicationMenu(app.isPackaged)));
  // Read first: a damaged boxes.json stops here, before any window, and the dialog says which file.
  const store = new BoxStore(path.join(app.getPath('userData'), 'boxes.json'));
  const discovery = new Discovery({ browser: browser(), known: () => store.list() });
  const service = new ConsoleService({ store, discovery });
  const window = new BrowserWindow({
    width: 1000,
    height: 720,
    minWidth: 360,
    title: 'Cellar',
    webPreferences: { preload: files.preload, contextIsolation: true, sandbox: true, nodeIntegration: false },
  });
  serveConsolePages(window.webContents.session.protocol, files.pagesDir);
  setOwnOrigin(window.webContents, consoleOrigin);
  discovery.on('change', (boxes) => window.webContents.send('console:boxes', boxes));
  discovery.start();

  // Only the console's own page may call: a box's desktop runs in other windows without the preload anyway.
  const handle = (name: keyof ConsoleBridge, run: (...args: never[]) => unknown) =>
    ipcMain.handle(`console:${name}`, async (event: IpcMainInvokeEvent, ...args: unknown[]) => {
      if (!isConsoleFrame(event.senderFrame?.url)) return { ok: false, problem: { code: 'console.caller.refused' } };
      try {
        return { ok: true, value: await run(...(args as never[])) };
      } catch (err) {
        if (err instanceof ConsoleError) return { ok: false, problem: err.toProblem() };
        throw err;
      }
    });
  handle('listBoxes', () => service.listBoxes());
  handle('addBox', (url: string) => service.addBox(url));
  handle('forgetBox', async (id: string, removeSystemTrust: boolean) => {
    const results = await service.forgetBox(id, removeSystemTrust);
    await removeBoxPartition(id);
    return results;
  });
  handle('removeTrust', async (id: string) => {
    const results = await service.removeTrust(id);
    await removeBoxPartition(id);
    return results;
  });
  handle('offerRoot', (id: string) => service.offerRoot(id));
  handle('trustBox', (id: string, fingerprint: string) => service.trustBox(id, fingerprint));
  handle('trustOnSystem', (id: string) => service.trustOnSystem(id));
  handle('openBox', (id: string) => openBoxWindow(service, id, files.pagesDir));
  handle('readBackup', (file: Uint8Array, password: string) => service.readBackup(file, password));
  handle('installer', (call: Parameters<ConsoleBridge['installer']>[0]) => service.installer(call));

  void window.loadURL(consolePage);
  app.on('window-all-closed', () => {
    discovery.stop();
    app.quit();
  });
  return window;
}
