import { contextBridge, ipcRenderer } from 'electron';
import type { BridgeProblem, ConsoleBridge, ListedBox } from '../bridge.ts';
import { isConsoleFrame } from '../node/shell-policy.ts';

/** The minimal bridge of the console's own page: each call is one IPC the main process checks. */
type Answer<T> = { ok: true; value: T } | { ok: false; problem: BridgeProblem };

async function call<T>(name: keyof ConsoleBridge, ...args: unknown[]): Promise<T> {
  const answer = (await ipcRenderer.invoke(`console:${name}`, ...args)) as Answer<T>;
  if (answer.ok) return answer.value;
  throw Object.assign(new Error(answer.problem.code), answer.problem);
}

const bridge = {
  listBoxes: () => call('listBoxes'),
  watchBoxes(listener: (boxes: ListedBox[]) => void) {
    const handler = (_event: unknown, boxes: ListedBox[]) => listener(boxes);
    ipcRenderer.on('console:boxes', handler);
    return () => void ipcRenderer.removeListener('console:boxes', handler);
  },
  addBox: (url) => call('addBox', url),
  forgetBox: (id, removeSystemTrust) => call('forgetBox', id, removeSystemTrust),
  removeTrust: (id) => call('removeTrust', id),
  offerRoot: (id) => call('offerRoot', id),
  trustBox: (id, fingerprint) => call('trustBox', id, fingerprint),
  trustOnSystem: (id) => call('trustOnSystem', id),
  openBox: (id) => call('openBox', id),
  readBackup: (file, password) => call('readBackup', file, password),
  installer: (request) => call('installer', request),
} satisfies ConsoleBridge;

// The preload runs only in the console's window (box windows have none); its page is on app://console.
if (isConsoleFrame(location.href)) contextBridge.exposeInMainWorld('cellarConsole', bridge);
