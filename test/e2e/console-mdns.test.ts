import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import en from '../../console/src/renderer/i18n/en.json' with { type: 'json' };
import { assertChromium, expectText, launchChromium, screenshotPath } from '../helpers/browser.ts';
import { openConsolePage, overflowScript, serveConsolePages, socketBridge } from '../helpers/console-pages.ts';
import { makeMdnsNamespace, startInNamespace } from '../helpers/mdns-namespace.ts';

/**
 * The box list fed by real mDNS: a real daemon announced in a network namespace of the test's own,
 * found by the console's discovery there; the pages in Chromium reach that ConsoleService over a
 * unix socket. Needs root (the namespace).
 */
describe('e2e: console box list with a real daemon announced over mDNS', function () {
  this.timeout(120_000);
  let ns: ReturnType<typeof makeMdnsNamespace>;
  let sidecar: Awaited<ReturnType<typeof startInNamespace<{ daemonUrl: string; rootFingerprint: string }>>>;
  let pages: { url: string; server: Server };
  let browser: Browser;
  let page: Page;
  let dir: string;

  before(async () => {
    assertChromium();
    pages = await serveConsolePages();
    ns = makeMdnsNamespace();
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-console-mdns-'));
    const socketPath = path.join(dir, 'bridge.sock');
    sidecar = await startInNamespace(ns.name, 'test/helpers/console-sidecar.ts', { socketPath });
    browser = await launchChromium();
    page = await openConsolePage(browser, pages.url, socketBridge(socketPath));
  });
  after(async () => {
    await browser?.close();
    await sidecar?.stop();
    ns?.remove();
    pages?.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the announced installed box and the box waiting for installation, and trusts the installed one', async () => {
    const attic = page.locator('li[data-box="attic"]');
    const newbox = page.locator('li[data-box="newbox"]');
    await expectText(attic.locator('.mode'), en['boxes.mode.installed']);
    await expectText(newbox.locator('.mode'), en['boxes.mode.installer']);
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('console-mdns-list-390') });
    await attic.getByRole('button', { name: en['boxes.trust'] }).click();
    const dialog = page.getByRole('dialog');
    await expectText(dialog.getByTestId('received-fingerprint'), sidecar.ready.rootFingerprint);
    await dialog.getByLabel(en['trust.box']).fill(sidecar.ready.rootFingerprint);
    await dialog.getByLabel(en['trust.box']).press('Enter');
    // Remembered with its install id: still one entry, now known and trusted.
    await expectText(attic.locator('.trust-state'), en['boxes.trusted']);
    expect(await page.locator('li[data-box="attic"]').count()).to.equal(1);
    expect(await attic.getByRole('button', { name: en['boxes.forget'] }).count()).to.equal(1);
  });

  it('opens the installer wizard by keyboard and shows the box refusal of a claim in words, its code as a detail (a box not in installer mode)', async () => {
    const install = page.locator('li[data-box="newbox"]').getByRole('button', { name: en['boxes.install'] });
    await install.focus();
    await page.keyboard.press('Enter');
    await expectText(page.getByRole('heading', { level: 2 }), en['wizard.title'].replace('{name}', 'newbox'));
    await page.getByRole('button', { name: en['wizard.claim.submit'] }).press('Enter');
    // The console's own words for the box's problem code; the code itself only as a detail.
    await expectText(page.getByRole('alert').first(), en['error.installer.mode.inactive']);
    await expectText(page.locator('.card .ui-hint').last(), en['error.code'].replace('{code}', 'installer.mode.inactive'));
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('console-wizard-390') });
  });
});
