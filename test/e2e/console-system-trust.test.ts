import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { TlsStore } from '../../daemon/src/areas/tls/tls-store.ts';
import de from '../../console/src/renderer/i18n/de.json' with { type: 'json' };
import en from '../../console/src/renderer/i18n/en.json' with { type: 'json' };
import { assertChromium, expectText, launchChromium, screenshotPath } from '../helpers/browser.ts';
import { consoleWithoutMdns, englishShown, openConsolePage, overflowScript, serveConsolePages, serviceBridge } from '../helpers/console-pages.ts';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';

/** What Chromium run with this HOME makes of the box's HTTPS: it reads the user's NSS database there. */
async function chromiumVisit(home: string, url: string): Promise<string> {
  const browser = await launchChromium({ HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' });
  try {
    const page = await browser.newPage();
    return await page.goto(url).then(
      (answer) => `status ${answer?.status()}`,
      (err: Error) => err.message.split('\n')[0]!,
    );
  } finally {
    await browser.close();
  }
}

describe("e2e: console trusts a pinned root on this computer too (the user's NSS database, for real)", function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;
  let pages: { url: string; server: Server };
  let dir: string;
  let home: string;
  let rootFingerprint: string;
  let scope: { dnsNames: string[]; ipRanges: string[] };
  let page: Page;
  /** The dialog's sentence on what the root vouches for, in one language. */
  const scopeText = (messages: typeof en) =>
    messages['system.scope'].replace('{names}', scope.dnsNames.join(', ')).replace('{ranges}', scope.ipRanges.join(', '));

  before(async () => {
    assertChromium();
    pages = await serveConsolePages();
    box = await startTestDaemon({ https: true });
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-console-system-trust-'));
    home = path.join(dir, 'home');
    const authority = new TlsStore(path.join(box.dataDir, 'tls'), path.join(box.dataDir, 'tls-secret')).readAuthority()!;
    const rootPem = authority.rootPem;
    scope = authority.scope;
    rootFingerprint = new X509Certificate(rootPem).fingerprint256;
    // An ordinary user without pkexec: the NSS database in a HOME of the test's own, the system store left alone.
    const service = consoleWithoutMdns(path.join(dir, 'boxes.json'), { platform: 'linux', home, isRoot: false, hasPkexec: false });
    browser = await launchChromium();
    page = await openConsolePage(browser, pages.url, serviceBridge(service));
  });
  after(async () => {
    await browser?.close();
    await box?.close();
    pages?.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('offers it only after the root is pinned, asks first, and then Chromium trusts the box', async () => {
    expect(await chromiumVisit(home, `${box.url}/api/openapi.json`)).to.include('ERR_CERT_AUTHORITY_INVALID');
    await page.getByLabel(en['boxes.add.label']).fill(box.url);
    await page.keyboard.press('Enter');
    const card = page.locator('li.card').filter({ hasText: '127.0.0.1' });
    await expectText(card.locator('.trust-state'), en['boxes.untrusted']);
    expect(await card.getByRole('button', { name: en['boxes.system'] }).count()).to.equal(0);
    await card.getByRole('button', { name: en['boxes.trust'] }).click();
    await page.getByRole('dialog').getByLabel(en['trust.box']).fill(rootFingerprint);
    await page.getByRole('dialog').getByLabel(en['trust.box']).press('Enter');
    await expectText(card.locator('.trust-state'), en['boxes.trusted']);

    // By keyboard; Escape leaves everything as it was.
    await card.getByRole('button', { name: en['boxes.system'] }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expectText(dialog.getByRole('heading'), en['system.title'].replace('{name}', '127.0.0.1'));
    // What the root can vouch for, read from the root's own name constraints: the box's names and private addresses.
    expect(scope.dnsNames).to.include('localhost');
    await expectText(dialog.getByTestId('root-scope'), scopeText(en));
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('console-system-trust-390') });
    await page.keyboard.press('Escape');
    expect(await dialog.count()).to.equal(0);
    expect(existsSync(path.join(home, '.pki'))).to.equal(false);

    await card.getByRole('button', { name: en['boxes.system'] }).click();
    await dialog.getByRole('button', { name: en['system.submit'] }).press('Enter');
    await expectText(dialog.locator('li[data-store="nss"]'), `${en['system.store.nss']}: ${en['system.state.done']}`);
    await expectText(
      dialog.locator('li[data-store="system"]'),
      `${en['system.store.system']}: ${en['system.state.missing'].replace('{tool}', 'pkexec').replace('{package}', 'pkexec')}`,
    );
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('console-system-trust-done-390') });
    await dialog.getByRole('button', { name: en['system.close'] }).click();
    expect(await chromiumVisit(home, `${box.url}/api/openapi.json`)).to.equal('status 200');
  });

  it('asks and answers in German too, and adding again changes nothing', async () => {
    const trustPage = ['app.', 'nav.', 'boxes.', 'trust.', 'system.', 'error.'];
    await page.getByLabel(en['boxes.add.label']).fill('not a box/path');
    await page.keyboard.press('Enter');
    await expectText(page.getByRole('alert').first(), en['error.console.address.invalid']);
    await page.getByLabel(en['app.language']).selectOption('de');
    // The refusal and the notice of the trust done in English above now speak German as well.
    await expectText(page.getByRole('alert').first(), de['error.console.address.invalid']);
    await expectText(page.getByRole('status'), de['trust.done'].replace('{name}', '127.0.0.1'));
    expect(await englishShown(page, en, de, trustPage)).to.deep.equal([]);
    const card = page.locator('li.card').filter({ hasText: '127.0.0.1' });
    await card.getByRole('button', { name: de['boxes.system'] }).click();
    const dialog = page.getByRole('dialog');
    await expectText(dialog.getByRole('heading'), de['system.title'].replace('{name}', '127.0.0.1'));
    await expectText(dialog.getByTestId('root-scope'), scopeText(de));
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    expect(await englishShown(page, en, de, trustPage)).to.deep.equal([]);
    await dialog.getByRole('button', { name: de['system.submit'] }).click();
    await expectText(dialog.locator('li[data-store="nss"]'), `${de['system.store.nss']}: ${de['system.state.done']}`);
    await expectText(
      dialog.locator('li[data-store="system"]'),
      `${de['system.store.system']}: ${de['system.state.missing'].replace('{tool}', 'pkexec').replace('{package}', 'pkexec')}`,
    );
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    expect(await englishShown(page, en, de, trustPage)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('console-system-trust-de-390') });
    expect(await chromiumVisit(home, `${box.url}/api/openapi.json`)).to.equal('status 200');
  });

  it('takes trust back from the list: the pin, and the root out of the store it went into, so Chromium refuses the box again', async () => {
    await page.getByRole('dialog').getByRole('button', { name: de['system.close'] }).click();
    await page.getByLabel(de['app.language']).selectOption('en');
    const card = page.locator('li.card').filter({ hasText: '127.0.0.1' });
    await card.getByRole('button', { name: en['boxes.untrust'] }).click();
    const dialog = page.getByRole('dialog');
    await expectText(dialog.getByRole('heading'), en['boxes.untrust.title'].replace('{name}', '127.0.0.1'));
    await page.keyboard.press('Escape');
    expect(await chromiumVisit(home, `${box.url}/api/openapi.json`)).to.equal('status 200');
    await card.getByRole('button', { name: en['boxes.untrust'] }).click();
    await dialog.getByRole('button', { name: en['boxes.untrust.submit'] }).press('Enter');
    // Only the store the root went into (no pkexec here, so not the system's).
    await expectText(page.locator('.removal li[data-store="nss"]'), `${en['system.store.nss']}: ${en['remove.state.done']}`);
    expect(await page.locator('.removal li').count()).to.equal(1);
    await expectText(card.locator('.trust-state'), en['boxes.untrusted']);
    expect(await card.getByRole('button', { name: en['boxes.untrust'] }).count()).to.equal(0);
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('console-untrust-390') });
    expect(await chromiumVisit(home, `${box.url}/api/openapi.json`)).to.include('ERR_CERT_AUTHORITY_INVALID');
  });

  it("asks when forgetting a box whose root is in this computer's stores, and removes it there too", async () => {
    const card = page.locator('li.card').filter({ hasText: '127.0.0.1' });
    await card.getByRole('button', { name: en['boxes.trust'] }).click();
    await page.getByRole('dialog').getByLabel(en['trust.box']).fill(rootFingerprint);
    await page.getByRole('dialog').getByLabel(en['trust.box']).press('Enter');
    await card.getByRole('button', { name: en['boxes.system'] }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: en['system.submit'] }).press('Enter');
    await expectText(dialog.locator('li[data-store="nss"]'), `${en['system.store.nss']}: ${en['system.state.done']}`);
    await dialog.getByRole('button', { name: en['system.close'] }).click();
    expect(await chromiumVisit(home, `${box.url}/api/openapi.json`)).to.equal('status 200');

    await card.getByRole('button', { name: en['boxes.forget'] }).click();
    const ask = dialog.getByLabel(en['boxes.forget.system'].replace('{stores}', en['system.store.nss']));
    expect(await ask.isChecked()).to.equal(true);
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('console-forget-system-390') });
    await dialog.getByRole('button', { name: en['boxes.forget'] }).click();
    await expectText(page.locator('.removal li[data-store="nss"]'), `${en['system.store.nss']}: ${en['remove.state.done']}`);
    expect(await card.count()).to.equal(0);
    expect(await chromiumVisit(home, `${box.url}/api/openapi.json`)).to.include('ERR_CERT_AUTHORITY_INVALID');
  });
});
