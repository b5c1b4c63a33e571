import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAuthority, issueServerCertificate, type AuthorityMaterial } from '../../../daemon/src/areas/tls/authority.ts';
import type { ListedBox } from '../bridge.ts';

// The console's Electron glue under plain Node: `electron` resolves to the stand-in (no binary here).
// Mocha may load this file as CommonJS: the stand-in is imported as an ES module, as the glue does.
register('../../../test/helpers/electron-hooks.mjs', import.meta.url);
const electron = (await import('electron')) as unknown as typeof import('../../../test/helpers/electron-stand-in.ts');
const { app, BrowserWindow, StandInWebContents, contextBridge, dialog, ipcMain, ipcRenderer, Menu, protocol, session, shell } = electron;

type Answer = { ok: true; value: unknown } | { ok: false; problem: { code: string } };
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));
const event = StandInWebContents.event;

describe('console main process and preload, driven through a stand-in electron module', function () {
  this.timeout(60_000);
  let dir: string;
  let pagesDir: string;
  let authority: AuthorityMaterial;
  let leaf: string;
  let startConsole: (files: { pagesDir: string; preload: string }, browser: () => { start(): () => void }) => void;
  // No mDNS from a test: it would reach the machine's own networks (discovery over mDNS: test/system/console-discovery.test.ts).
  const silent = () => ({ start: () => () => {} });
  let applicationMenu: (packaged: boolean) => { role?: string; submenu?: { role?: string }[] }[];
  const boxId = 'b0c5e3a1-0000-4000-8000-000000000001';
  const boxUrl = 'https://127.0.0.1:9';
  const consoleWindow = () => BrowserWindow.all[0]!;
  const call = (channel: string, frameUrl: string, ...args: unknown[]) =>
    ipcMain.handlers.get(`console:${channel}`)!({ senderFrame: { url: frameUrl } } as never, ...(args as never[])) as Promise<Answer>;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-console-shell-'));
    pagesDir = path.join(dir, 'renderer');
    mkdirSync(pagesDir);
    writeFileSync(path.join(pagesDir, 'index.html'), '<!doctype html><title>Cellar</title>');
    writeFileSync(path.join(dir, 'secret.txt'), 'outside the pages');
    const now = Date.now();
    authority = await createAuthority({ now, hostname: 'cellar', localDomain: 'home.arpa' });
    leaf = (await issueServerCertificate(authority, ['127.0.0.1'], { now, lifetimeDays: 30 })).certificatePem;
    const root = new X509Certificate(authority.rootPem);
    app.userData = path.join(dir, 'user');
    mkdirSync(path.join(app.userData, 'Partitions', `box-${boxId}`), { recursive: true });
    writeFileSync(
      path.join(app.userData, 'boxes.json'),
      JSON.stringify({
        version: 1,
        boxes: [
          {
            id: boxId,
            name: 'attic',
            url: boxUrl,
            installId: 'attic-id',
            pin: { pem: authority.rootPem, sha256: root.fingerprint256, pinnedAt: new Date(now).toISOString() },
            warning: null,
            addedAt: new Date(now).toISOString(),
          },
        ],
      }),
    );
    // Not literal imports: the root typecheck does not follow into the Electron-bound folders.
    const appModule = pathToFileURL(path.join(import.meta.dirname, 'app.ts')).href;
    ({ startConsole, applicationMenu } = (await import(appModule)) as never);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('registers app: as a standard secure scheme before ready, then opens the console page on app://console, not file:', async () => {
    startConsole({ pagesDir, preload: path.join(dir, 'preload.cjs') }, silent);
    expect(protocol.privileged).to.deep.include({ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false } });
    expect(BrowserWindow.all).to.have.length(0);
    app.makeReady();
    await tick();
    expect(consoleWindow().loaded).to.deep.equal(['app://console/index.html']);
    expect(consoleWindow().options.webPreferences).to.deep.include({
      preload: path.join(dir, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect(Menu.applied).to.not.equal(null);
  });

  it('serves the pages folder on app://console and nothing outside it', async () => {
    const handler = consoleWindow().webContents.session.protocol.handlers.get('app')!;
    const index = await handler({ url: 'app://console/index.html' });
    expect(index.status).to.equal(200);
    expect(index.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).to.include("connect-src 'none'");
    expect(await index.text()).to.include('<title>Cellar</title>');
    for (const url of ['app://console/%2e%2e/secret.txt', 'app://console/..%2fsecret.txt', 'app://other/index.html', 'app://console/missing.js']) {
      expect((await handler({ url })).status, url).to.equal(404);
    }
  });

  it('answers IPC only from the console page on app://console', async () => {
    const listed = await call('listBoxes', 'app://console/index.html');
    expect(listed.ok).to.equal(true);
    expect((listed as { value: ListedBox[] }).value.map((b) => b.name)).to.deep.equal(['attic']);
    for (const frame of ['file:///usr/lib/cellar-console/resources/app.asar/dist/renderer/index.html', 'https://127.0.0.1:9/', 'app://evil/index.html', '']) {
      expect(await call('listBoxes', frame), frame).to.deep.equal({ ok: false, problem: { code: 'console.caller.refused' } });
    }
    // A ConsoleError reaches the page as its problem.
    expect(await call('offerRoot', 'app://console/index.html', 'no such box')).to.deep.include({ ok: false });
  });

  it('exposes the bridge in the console page only, and its calls reach the main process', async () => {
    const preload = pathToFileURL(path.join(import.meta.dirname, '..', 'preload', 'preload.ts')).href;
    (globalThis as { location?: unknown }).location = { href: 'https://127.0.0.1:9/' };
    await import(`${preload}?box`);
    expect(contextBridge.exposed.has('cellarConsole')).to.equal(false);
    (globalThis as { location?: unknown }).location = { href: 'app://console/index.html' };
    await import(`${preload}?console`);
    const bridge = contextBridge.exposed.get('cellarConsole') as {
      listBoxes(): Promise<ListedBox[]>;
      offerRoot(id: string): Promise<unknown>;
      watchBoxes(listener: (boxes: ListedBox[]) => void): () => void;
    };
    ipcRenderer.frameUrl = 'app://console/index.html';
    expect((await bridge.listBoxes()).map((b) => b.id)).to.deep.equal([boxId]);
    const refused = await bridge.offerRoot('no such box').catch((err: unknown) => err);
    expect(refused).to.include({ code: 'console.box.not_found' });
    const seen: ListedBox[][] = [];
    const stop = bridge.watchBoxes((boxes) => seen.push(boxes));
    ipcRenderer.emit('console:boxes', {}, []);
    stop();
    ipcRenderer.emit('console:boxes', {}, []);
    expect(seen).to.deep.equal([[]]);
    delete (globalThis as { location?: unknown }).location;
  });

  it('hardens every contents as it is created: navigation, frames, redirects, new windows, webviews', () => {
    const contents = consoleWindow().webContents;
    const navigate = (name: string, url: string, extra: object = {}) => {
      const e = event({ url, isMainFrame: true, ...extra });
      contents.emit(name, e);
      return e.defaultPrevented;
    };
    expect(navigate('will-navigate', 'app://console/index.html#backup')).to.equal(false);
    expect(navigate('will-navigate', 'https://example.org/')).to.equal(true);
    expect(navigate('will-navigate', 'file:///etc/passwd')).to.equal(true);
    expect(navigate('will-redirect', 'https://example.org/')).to.equal(true);
    expect(navigate('will-frame-navigate', 'https://example.org/', { isMainFrame: false })).to.equal(true);
    expect(navigate('will-frame-navigate', 'about:blank', { isMainFrame: false })).to.equal(false);
    expect(navigate('will-frame-navigate', 'about:blank', { isMainFrame: true })).to.equal(true);
    expect(contents.openHandler!({ url: 'https://example.org/help' })).to.deep.equal({ action: 'deny' });
    expect(shell.opened).to.deep.equal(['https://example.org/help']);
    expect(contents.openHandler!({ url: 'javascript:alert(1)' })).to.deep.equal({ action: 'deny' });
    expect(contents.openHandler!({ url: 'file:///etc/passwd' })).to.deep.equal({ action: 'deny' });
    expect(shell.opened).to.have.length(1);
    const same = contents.openHandler!({ url: 'app://console/index.html' });
    expect(same).to.deep.include({ action: 'allow' });
    expect(same.overrideBrowserWindowOptions).to.deep.equal({ webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false } });
    // The window it opens is held to the same origin, although it was created after the first.
    const child = new BrowserWindow({});
    contents.emit('did-create-window', child);
    const e = event({ url: 'https://example.org/' });
    child.webContents.emit('will-navigate', e);
    expect(e.defaultPrevented).to.equal(true);
    const inside = event({ url: 'app://console/index.html' });
    child.webContents.emit('will-navigate', inside);
    expect(inside.defaultPrevented).to.equal(false);
    // Contents nobody gave an origin go nowhere.
    const stray = new BrowserWindow({});
    expect(stray.webContents.openHandler!({ url: 'https://example.org/' })).to.deep.equal({ action: 'deny' });
    const webview = event({});
    contents.emit('will-attach-webview', webview);
    expect(webview.defaultPrevented).to.equal(true);
  });

  it('refuses every permission to the console page', () => {
    const contents = consoleWindow().webContents;
    let granted: boolean | null = null;
    contents.session.permissionRequest!(
      contents as never,
      'clipboard-sanitized-write' as never,
      ((g: boolean) => (granted = g)) as never,
      { requestingUrl: 'app://console/index.html' } as never,
    );
    expect(granted).to.equal(false);
    expect(contents.session.permissionCheck!(contents as never, 'clipboard-sanitized-write' as never, 'app://console' as never, {} as never)).to.equal(false);
  });

  it('shows the console page about an unreachable box instead of a blank window', async () => {
    BrowserWindow.loadOutcome = async (url) => {
      if (url.startsWith('https:')) throw new Error('ERR_CONNECTION_REFUSED');
    };
    expect(await call('openBox', 'app://console/index.html', boxId)).to.deep.equal({ ok: true, value: undefined });
    const box = BrowserWindow.all.at(-1)!;
    box.webContents.emit('did-fail-load', {}, -102, 'ERR_CONNECTION_REFUSED', boxUrl, true);
    expect(box.loaded[1]).to.equal('app://console/box-failure?reason=unreachable&name=attic&url=https%3A%2F%2F127.0.0.1%3A9');
    const page = await session.fromPartition(`persist:box-${boxId}`).protocol.handlers.get('app')!({ url: box.loaded[1]! });
    expect(page.headers.get('content-security-policy')).to.include("default-src 'none'");
    expect(await page.text())
      .to.include('The box does not answer')
      .and.include('<code>https://127.0.0.1:9</code>');
    box.destroy();
  });

  it("opens a box in its own partition: the pin decides certificates, the box's page may write the clipboard, failures show the console's page", async () => {
    BrowserWindow.loadOutcome = async (url) => {
      if (url.startsWith('https:')) throw new Error('ERR_CERT_AUTHORITY_INVALID');
    };
    expect(await call('openBox', 'app://console/index.html', boxId)).to.deep.equal({ ok: true, value: undefined });
    const box = BrowserWindow.all.at(-1)!;
    const partition = session.fromPartition(`persist:box-${boxId}`);
    expect(box.options.webPreferences?.session).to.equal(partition);
    expect(box.loaded).to.deep.equal([boxUrl]);
    // The chain as Electron links it, leaf first, to the pinned root.
    const verify = (hostname: string, certificate: object) =>
      new Promise<number>((resolve) => partition.verifyProc!({ hostname, certificate } as never, ((code: number) => resolve(code)) as never));
    const chain = { data: leaf, issuerCert: { data: authority.intermediatePem, issuerCert: { data: authority.rootPem } } };
    expect(await verify('127.0.0.1', chain)).to.equal(0);
    expect(await verify('localhost', chain)).to.equal(-2);
    const other = await createAuthority({ now: Date.now(), hostname: 'other', localDomain: 'home.arpa' });
    const otherLeaf = (await issueServerCertificate(other, ['127.0.0.1'], { now: Date.now(), lifetimeDays: 30 })).certificatePem;
    expect(await verify('127.0.0.1', { data: otherLeaf, issuerCert: { data: other.intermediatePem, issuerCert: { data: other.rootPem } } })).to.equal(-2);
    // The refusal was recorded as the box's warning, and the window shows the console's page about it.
    const listed = (await call('listBoxes', 'app://console/index.html')) as { value: ListedBox[] };
    expect(listed.value[0]!.warning).to.include({ kind: 'rootChanged', fingerprint: new X509Certificate(other.rootPem).fingerprint256 });
    box.webContents.emit('did-fail-load', {}, -202, 'ERR_CERT_AUTHORITY_INVALID', boxUrl, true);
    expect(box.loaded[1]).to.match(/^app:\/\/console\/box-failure\?reason=certificate&name=attic&url=https%3A%2F%2F127\.0\.0\.1%3A9$/);
    const page = await partition.protocol.handlers.get('app')!({ url: box.loaded[1]! });
    const html = await page.text();
    expect(html).to.include('The box was refused').and.include('<strong>attic</strong>');
    expect(html).to.not.include('<script');
    // A subframe failing is no reason to replace the window's page; an aborted load neither.
    box.webContents.emit('did-fail-load', {}, -102, 'ERR_CONNECTION_REFUSED', `${boxUrl}/app`, false);
    box.webContents.emit('did-fail-load', {}, -3, 'ERR_ABORTED', boxUrl, true);
    expect(box.loaded).to.have.length(2);

    // The box's own page may write to the clipboard for its own origin; nothing else, no one else.
    const contents = box.webContents;
    contents.url = `${boxUrl}/`;
    const request = (permission: string, requestingUrl: string) => {
      let granted: boolean | null = null;
      partition.permissionRequest!(contents as never, permission as never, ((g: boolean) => (granted = g)) as never, { requestingUrl } as never);
      return granted;
    };
    expect(request('clipboard-sanitized-write', `${boxUrl}/desktop`)).to.equal(true);
    expect(request('clipboard-read', `${boxUrl}/desktop`)).to.equal(false);
    expect(request('notifications', `${boxUrl}/desktop`)).to.equal(false);
    expect(request('clipboard-sanitized-write', 'https://example.org/')).to.equal(false);
    expect(partition.permissionCheck!(contents as never, 'clipboard-sanitized-write' as never, boxUrl as never, {} as never)).to.equal(true);
    expect(partition.permissionCheck!(contents as never, 'media' as never, boxUrl as never, {} as never)).to.equal(false);
    const away = event({ url: 'https://example.org/' });
    contents.emit('will-navigate', away);
    expect(away.defaultPrevented).to.equal(true);
    const own = event({ url: `${boxUrl}/files` });
    contents.emit('will-navigate', own);
    expect(own.defaultPrevented).to.equal(false);
    // Opened again while open: the same window, focused.
    await call('openBox', 'app://console/index.html', boxId);
    expect(box.focused).to.equal(1);
  });

  it('forgets a box with its session partition, and asks the page whether to remove system trust', async () => {
    const partition = session.fromPartition(`persist:box-${boxId}`);
    const before = partition.cleared;
    expect(await call('forgetBox', 'app://console/index.html', boxId, 'yes')).to.deep.include({ ok: false });
    expect(await call('forgetBox', 'app://console/index.html', boxId, false)).to.deep.equal({ ok: true, value: [] });
    expect(partition.cleared).to.equal(before + 1);
    expect(existsSync(path.join(app.userData, 'Partitions', `box-${boxId}`))).to.equal(false);
    expect(((await call('listBoxes', 'app://console/index.html')) as { value: ListedBox[] }).value).to.deep.equal([]);
  });

  it('has no Reload or DevTools in the menu of a packaged build', () => {
    const roles = (packaged: boolean) => applicationMenu(packaged).flatMap((item) => [item.role, ...(item.submenu ?? []).map((s) => s.role)]);
    expect(roles(false)).to.include('toggleDevTools').and.include('reload');
    expect(roles(true)).to.not.include('toggleDevTools');
    expect(roles(true)).to.not.include('reload');
    expect(roles(true)).to.include('editMenu');
  });

  it('says a failure at start in a dialog and exits (a damaged boxes.json)', async () => {
    app.userData = path.join(dir, 'damaged');
    mkdirSync(app.userData);
    writeFileSync(path.join(app.userData, 'boxes.json'), '{ not json');
    startConsole({ pagesDir, preload: path.join(dir, 'preload.cjs') }, silent);
    await tick();
    expect(dialog.errors).to.have.length(1);
    expect(dialog.errors[0]!.title).to.equal('Cellar Console could not start');
    expect(app.exitCode).to.equal(1);
  });

  it('quits when another instance holds the lock, and focuses the first on a second start', () => {
    const windows = BrowserWindow.all.length;
    const focused = consoleWindow().focused;
    app.emit('second-instance');
    expect(consoleWindow().focused).to.equal(focused + 1);
    app.singleInstance = false;
    const quits = app.quits;
    startConsole({ pagesDir, preload: path.join(dir, 'preload.cjs') }, silent);
    expect(app.quits).to.equal(quits + 1);
    expect(BrowserWindow.all.length).to.equal(windows);
  });
});
