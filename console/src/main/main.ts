import { app, BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ConsoleBridge } from '../bridge.ts';
import { BoxStore } from '../node/box-store.ts';
import { ConsoleError } from '../node/console-error.ts';
import { ConsoleService } from '../node/console-service.ts';
import { Discovery } from '../node/discovery.ts';
import { bonjourBrowser } from '../node/mdns-browser.ts';
import { openBoxWindow } from './box-window.ts';
import { hardenContents } from './harden.ts';

/** The main process: one console window, one window per opened box; everything else is in ../node. */
const pages = path.join(import.meta.dirname, '..', 'renderer');
const consolePage = pathToFileURL(path.join(pages, 'index.html')).href;

app.whenReady().then(() => {
  const store = new BoxStore(path.join(app.getPath('userData'), 'boxes.json'));
  const discovery = new Discovery({ browser: bonjourBrowser(), known: () => store.list() });
  const service = new ConsoleService({ store, discovery });
  const window = new BrowserWindow({
    width: 1000,
    height: 720,
    minWidth: 360,
    title: 'Cellar',
    webPreferences: {
      preload: path.join(import.meta.dirname, '..', 'preload', 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  hardenContents(window.webContents, new URL(consolePage));
  discovery.on('change', (boxes) => window.webContents.send('console:boxes', boxes));
  discovery.start();

  // Only the console's own page may call: a box's desktop runs in other windows without the preload anyway.
  const handle = <K extends keyof ConsoleBridge>(name: K, run: (...args: never[]) => unknown) =>
    ipcMain.handle(`console:${name}`, async (event: IpcMainInvokeEvent, ...args: unknown[]) => {
      if (event.senderFrame?.url !== consolePage) return { ok: false, problem: { code: 'console.caller.refused' } };
      try {
        return { ok: true, value: await run(...(args as never[])) };
      } catch (err) {
        if (err instanceof ConsoleError) return { ok: false, problem: err.toProblem() };
        throw err;
      }
    });
  handle('listBoxes', () => service.listBoxes());
  handle('addBox', (url: string) => service.addBox(url));
  handle('forgetBox', (id: string) => service.forgetBox(id));
  handle('offerRoot', (id: string) => service.offerRoot(id));
  handle('trustBox', (id: string, fingerprint: string) => service.trustBox(id, fingerprint));
  handle('trustOnSystem', (id: string) => service.trustOnSystem(id));
  handle('openBox', (id: string) => openBoxWindow(service, id));
  handle('readBackup', (file: Uint8Array, password: string) => service.readBackup(file, password));
  handle('installer', (call: Parameters<ConsoleBridge['installer']>[0]) => service.installer(call));

  void window.loadURL(consolePage);
  app.on('window-all-closed', () => {
    discovery.stop();
    app.quit();
  });
});
