import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import type { ConsoleBridge } from '../../console/src/bridge.ts';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const electronPackage = path.join(repo, 'console', 'node_modules', 'electron');

/**
 * Where the Electron binary is, or why there is none. Read from the electron package's path.txt
 * (what its install script writes after the download) rather than by requiring the package,
 * which would try to download it.
 */
function electronBinary(): { path: string } | { missing: string } {
  const pathFile = path.join(electronPackage, 'path.txt');
  if (!existsSync(pathFile))
    return { missing: `no Electron binary: ${path.relative(repo, pathFile)} is absent (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1)` };
  const binary = path.join(electronPackage, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { path: binary } : { missing: `no Electron binary at ${binary}` };
}

const binary = electronBinary();
const skipped = 'missing' in binary ? ` (skipped: ${binary.missing})` : '';

/**
 * The console in a real Electron: the only test allowed to skip, where no Electron binary can be
 * downloaded (this project's Debian machines); everything else of the shell runs under plain Node
 * with a stand-in electron module (console/src/main/shell.test.ts). On a machine with a binary:
 * `npm --prefix console install` without ELECTRON_SKIP_BINARY_DOWNLOAD, then this file (docs/console.md).
 */
describe(`e2e: the console in a real Electron, against a real daemon over HTTPS${skipped}`, function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let dir: string;
  let electronApp: ElectronApplication;
  let page: Page;

  before(async function () {
    if ('missing' in binary) {
      console.log(`    ${binary.missing}`);
      return this.skip();
    }
    execFileSync(process.execPath, [path.join(repo, 'console', 'build.mjs')], { cwd: repo, stdio: 'pipe' });
    box = await startTestDaemon({ https: true });
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-console-electron-'));
    electronApp = await _electron.launch({
      executablePath: binary.path,
      // Chromium refuses to run as root with its sandbox.
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), path.join(repo, 'console')],
      env: { ...process.env, XDG_CONFIG_HOME: dir, HOME: dir },
    });
    page = await electronApp.firstWindow();
  });
  after(async () => {
    await electronApp?.close();
    await box?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('loads the console page from app://console with the bridge, and keeps it there', async () => {
    await page.waitForLoadState('domcontentloaded');
    expect(page.url()).to.equal('app://console/index.html');
    expect(await page.title()).to.equal('Cellar');
    expect(await page.evaluate(() => typeof (window as unknown as { cellarConsole?: unknown }).cellarConsole)).to.equal('object');
    // Navigation away is prevented in the main process: the page stays the console's.
    await page.evaluate(() => void (location.href = 'http://127.0.0.1:9/'));
    await page.waitForTimeout(500);
    expect(page.url()).to.equal('app://console/index.html');
    expect(await electronApp.evaluate(({ app }) => app.isPackaged)).to.equal(false);
  });

  it('trusts a box through the real preload and IPC, opens it in its own window, which the pin accepts', async () => {
    const bridge = (name: keyof ConsoleBridge, ...args: unknown[]) =>
      page.evaluate(
        ([n, a]) =>
          (window as unknown as { cellarConsole: Record<string, (...x: unknown[]) => Promise<unknown>> }).cellarConsole[n as string]!(...(a as unknown[])),
        [name, args] as const,
      );
    const added = (await bridge('addBox', box.url)) as { id: string };
    const offer = (await bridge('offerRoot', added.id)) as { fingerprint: string };
    await bridge('trustBox', added.id, offer.fingerprint);
    const opened = electronApp.waitForEvent('window');
    await bridge('openBox', added.id);
    const boxPage = await opened;
    await boxPage.waitForLoadState('domcontentloaded');
    // Accepted by the pin: the box's own origin, not the console's page about a refused certificate.
    expect(new URL(boxPage.url()).origin).to.equal(new URL(box.url).origin);
    expect(await boxPage.evaluate(() => typeof (window as unknown as { cellarConsole?: unknown }).cellarConsole)).to.equal('undefined');
  });
});
