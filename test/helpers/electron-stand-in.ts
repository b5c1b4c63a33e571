/**
 * A stand-in for the `electron` module, so the console's main process and preload run under plain
 * Node (no Electron binary here): every object keeps what it was given (handlers, loaded URLs,
 * menus), and each WebContents is an EventEmitter the test emits Electron's events on.
 * test/helpers/electron-hooks.mjs resolves `electron` to this file.
 */
import { EventEmitter } from 'node:events';

type Handler = (...args: never[]) => unknown;

export class StandInProtocol {
  handlers = new Map<string, (request: { url: string }) => Promise<Response>>();
  handle(scheme: string, handler: (request: { url: string }) => Promise<Response>): void {
    this.handlers.set(scheme, handler);
  }
  isProtocolHandled(scheme: string): boolean {
    return this.handlers.has(scheme);
  }
}

export class StandInSession {
  protocol = new StandInProtocol();
  verifyProc: Handler | null = null;
  permissionRequest: Handler | null = null;
  permissionCheck: Handler | null = null;
  cleared = 0;
  constructor(readonly partition: string) {}
  setCertificateVerifyProc(proc: Handler): void {
    this.verifyProc = proc;
  }
  setPermissionRequestHandler(handler: Handler): void {
    this.permissionRequest = handler;
  }
  setPermissionCheckHandler(handler: Handler): void {
    this.permissionCheck = handler;
  }
  async clearStorageData(): Promise<void> {
    this.cleared++;
  }
  async clearCache(): Promise<void> {}
}

const sessions = new Map<string, StandInSession>();
const defaultSession = new StandInSession('');
export const session = {
  defaultSession,
  fromPartition(partition: string): StandInSession {
    let found = sessions.get(partition);
    if (!found) sessions.set(partition, (found = new StandInSession(partition)));
    return found;
  },
};

let nextId = 1;
export class StandInWebContents extends EventEmitter {
  readonly id = nextId++;
  url = '';
  sent: { channel: string; args: unknown[] }[] = [];
  openHandler: ((details: { url: string }) => { action: string; overrideBrowserWindowOptions?: unknown }) | null = null;
  constructor(readonly session: StandInSession) {
    super();
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.openHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  getURL(): string {
    return this.url;
  }
  /** An event as Electron hands it: `preventDefault` and whatever details the event carries. */
  static event<T extends object>(details: T): T & { defaultPrevented: boolean; preventDefault(): void } {
    return Object.assign({ defaultPrevented: false }, details, {
      preventDefault(this: { defaultPrevented: boolean }) {
        this.defaultPrevented = true;
      },
    });
  }
}

export class BrowserWindow extends EventEmitter {
  static all: BrowserWindow[] = [];
  readonly webContents: StandInWebContents;
  loaded: string[] = [];
  destroyed = false;
  focused = 0;
  /** What loadURL does: resolves, or rejects like a failed load. */
  static loadOutcome: (url: string) => Promise<void> = async () => {};
  constructor(readonly options: { webPreferences?: { session?: StandInSession; preload?: string } } & Record<string, unknown>) {
    super();
    this.webContents = new StandInWebContents(options.webPreferences?.session ?? defaultSession);
    BrowserWindow.all.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.webContents.url = url;
    await BrowserWindow.loadOutcome(url);
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  focus(): void {
    this.focused++;
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('closed');
  }
}

class StandInApp extends EventEmitter {
  isPackaged = false;
  singleInstance = true;
  userData = '/nonexistent';
  quits = 0;
  exitCode: number | null = null;
  private ready: () => void = () => {};
  private readonly readyPromise = new Promise<void>((resolve) => (this.ready = resolve));
  requestSingleInstanceLock(): boolean {
    return this.singleInstance;
  }
  whenReady(): Promise<void> {
    return this.readyPromise;
  }
  /** The test says when Electron is ready. */
  makeReady(): void {
    this.ready();
  }
  getPath(name: string): string {
    if (name !== 'userData') throw new Error(`no stand-in path ${name}`);
    return this.userData;
  }
  getLocale(): string {
    return 'en-US';
  }
  quit(): void {
    this.quits++;
  }
  exit(code: number): void {
    this.exitCode = code;
  }
}
export const app = new StandInApp();

export const protocol = {
  privileged: [] as unknown[],
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    protocol.privileged.push(...schemes);
  },
};

export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle(channel: string, handler: Handler): void {
    ipcMain.handlers.set(channel, handler);
  },
};

export const shell = {
  opened: [] as string[],
  async openExternal(url: string): Promise<void> {
    shell.opened.push(url);
  },
};

export const dialog = {
  errors: [] as { title: string; content: string }[],
  showErrorBox(title: string, content: string): void {
    dialog.errors.push({ title, content });
  },
};

export const Menu = {
  applied: null as unknown,
  buildFromTemplate: (template: unknown) => ({ template }),
  setApplicationMenu(menu: unknown): void {
    Menu.applied = menu;
  },
};

/** The preload's side: what it exposes, and invoke routed to ipcMain's handlers as from `frameUrl`. */
export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    contextBridge.exposed.set(key, api);
  },
};

export const ipcRenderer = Object.assign(new EventEmitter(), {
  frameUrl: '',
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = ipcMain.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return (handler as (...a: unknown[]) => unknown)({ senderFrame: { url: ipcRenderer.frameUrl } }, ...args);
  },
});

export default { app, BrowserWindow, session, protocol, ipcMain, shell, dialog, Menu, contextBridge, ipcRenderer };
