import { existsSync, readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { BridgeProblem } from '../../console/src/bridge.ts';
import { BoxStore } from '../../console/src/node/box-store.ts';
import { ConsoleError } from '../../console/src/node/console-error.ts';
import { ConsoleService } from '../../console/src/node/console-service.ts';
import { Discovery } from '../../console/src/node/discovery.ts';
import type { TrustHost } from '../../console/src/node/system-trust.ts';

const repo = path.resolve(import.meta.dirname, '../..');
/** Built by `npx vite build --config console/vite.config.ts`; CONSOLE_PAGES_DIR points elsewhere. */
export const consolePagesDir = process.env.CONSOLE_PAGES_DIR ? path.resolve(process.env.CONSOLE_PAGES_DIR) : path.join(repo, 'console/dist/renderer');

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** Serves the built console pages on loopback (Chromium loads module scripts from http, not file:). */
export async function serveConsolePages(): Promise<{ url: string; server: Server }> {
  if (!existsSync(path.join(consolePagesDir, 'index.html')))
    throw new Error(`The console pages are not built: run \`npx vite build --config console/vite.config.ts\` (no ${consolePagesDir}/index.html).`);
  const server = createServer((req, res) => {
    const wanted = path.normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^\/+/, '') || 'index.html';
    const file = path.join(consolePagesDir, wanted);
    if (!file.startsWith(consolePagesDir) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/`, server };
}

type Answer = { ok: true; value: unknown } | { ok: false; problem: BridgeProblem };
/** One bridge call answered the way the main process answers IPC. */
export type BridgeCall = (name: string, args: unknown[]) => Promise<Answer>;

/**
 * The console's service in this process with its known boxes in `storeFile` and no mDNS: Chromium
 * and the daemon share the host's loopback, which carries no multicast (see
 * test/system/console-discovery.test.ts).
 */
export function consoleWithoutMdns(storeFile: string, trustHost?: TrustHost): ConsoleService {
  const store = new BoxStore(storeFile);
  const discovery = new Discovery({ browser: { start: () => () => {} }, known: () => store.list() });
  return new ConsoleService({ store, discovery, ...(trustHost ? { trustHost } : {}) });
}

/** The console's pages at `url` in a 390x844 window in English, their bridge answered by `bridge`. */
export async function openConsolePage(browser: Browser, url: string, bridge: BridgeCall): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' })).newPage();
  await installTestBridge(page, bridge);
  await page.goto(url);
  return page;
}

/** Calls the ConsoleService in this process. */
export function serviceBridge(service: ConsoleService): BridgeCall {
  return async (name, args) => {
    try {
      const run = (service as unknown as Record<string, (...a: unknown[]) => unknown>)[name];
      if (!run) throw new ConsoleError('console.request.invalid');
      return { ok: true, value: (await run.apply(service, args)) ?? null };
    } catch (err) {
      if (err instanceof ConsoleError) return { ok: false, problem: err.toProblem() };
      throw err;
    }
  };
}

/** Calls a ConsoleService in another process (test/helpers/console-sidecar-bridge.ts) over its unix socket. */
export function socketBridge(socketPath: string): BridgeCall {
  return (name, args) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ name, args: args.map((a) => (Buffer.isBuffer(a) ? a.toString('base64') : a)) });
      const req = request({ socketPath, path: '/', method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve(JSON.parse(text) as Answer));
      });
      req.on('error', reject);
      req.end(body);
    });
}

/**
 * Stands in for the Electron preload: `window.cellarConsole` calls the same ConsoleService the main
 * process answers IPC with, through a Playwright binding (no network, so the pages' CSP stays as shipped).
 */
export async function installTestBridge(page: Page, bridge: BridgeCall): Promise<void> {
  await page.exposeFunction('__consoleCall', (name: string, args: unknown[]) => {
    if (name === 'readBackup') args[0] = Buffer.from(args[0] as string, 'base64');
    return bridge(name, args);
  });
  // A string, not a function: tsx would wrap a function's inner functions in helpers the page lacks.
  await page.addInitScript(bridgeScript);
}

/** The page's `window.cellarConsole`, unwrapping answers the way the preload does. */
const bridgeScript = `(() => {
  const call = async (name, ...args) => {
    const answer = await window.__consoleCall(name, args);
    if (answer.ok) return answer.value;
    throw Object.assign(new Error(answer.problem.code), answer.problem);
  };
  const base64 = (bytes) => {
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  };
  window.cellarConsole = {
    listBoxes: () => call('listBoxes'),
    // IPC pushes in Electron; polling is enough for a test.
    watchBoxes(listener) {
      const timer = setInterval(() => void call('listBoxes').then(listener), 300);
      return () => clearInterval(timer);
    },
    addBox: (url) => call('addBox', url),
    forgetBox: (id, removeSystemTrust) => call('forgetBox', id, removeSystemTrust),
    removeTrust: (id) => call('removeTrust', id),
    offerRoot: (id) => call('offerRoot', id),
    trustBox: (id, fingerprint) => call('trustBox', id, fingerprint),
    trustOnSystem: (id) => call('trustOnSystem', id),
    openBox: (id) => call('openBox', id),
    readBackup: (file, password) => call('readBackup', base64(file), password),
    installer: (request) => call('installer', request),
  };
})()`;

/** Run in a page: what sticks out of a narrow window (the page scrolling sideways, or controls past its right edge that nothing clips). */
export const overflowScript = `(() => {
  const width = window.innerWidth;
  const out = [];
  if (document.scrollingElement.scrollWidth > width) out.push('the page scrolls sideways');
  for (const el of document.querySelectorAll('button, input:not([type=hidden]), select, label, code')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= width + 0.5) continue;
    let clipped = false;
    for (let p = el.parentElement; p && !clipped; p = p.parentElement)
      clipped = ['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX) && p.getBoundingClientRect().right <= width + 0.5;
    if (!clipped) out.push(el.tagName.toLowerCase() + ' "' + (el.textContent || '').trim().slice(0, 30) + '"');
  }
  return out;
})()`;

/**
 * The English sentences (keys under `prefixes` whose German differs) that the page's text still shows:
 * each template's fixed parts of two words or more, so a name filled into a placeholder does not count.
 */
export async function englishShown(page: Page, en: Record<string, string>, de: Record<string, string>, prefixes: string[]): Promise<string[]> {
  const text = await page.locator('body').innerText();
  const shown = Object.keys(en)
    .filter((key) => prefixes.some((prefix) => key.startsWith(prefix)) && en[key] !== de[key])
    .flatMap((key) => en[key]!.split(/\{\w+\}/).map((part) => ({ key, part: part.trim() })))
    .filter(({ part }) => part.includes(' ') && text.includes(part));
  return shown.map(({ key, part }) => `${key}: ${part}`);
}
