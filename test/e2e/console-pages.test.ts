import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import de from '../../console/src/renderer/i18n/de.json' with { type: 'json' };
import en from '../../console/src/renderer/i18n/en.json' with { type: 'json' };
import { assertChromium, expectText, launchChromium, screenshotPath } from '../helpers/browser.ts';
import { consoleWithoutMdns, englishShown, openConsolePage, overflowScript, serveConsolePages, serviceBridge } from '../helpers/console-pages.ts';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';

describe('e2e: console pages in Chromium against a real daemon (test bridge over the console modules)', function () {
  this.timeout(120_000);
  const password = 'a long backup passphrase';
  let box: TestDaemon;
  let browser: Browser;
  let pages: { url: string; server: Server };
  let dir: string;
  let backupFile: string;
  let rootFingerprint: string;
  let page: Page;

  before(async () => {
    assertChromium();
    pages = await serveConsolePages();
    box = await startTestDaemon();
    const admin = await box.signIn();
    await admin.api.users.create({ body: { username: 'bob', password: 'bob password 1', smb: true } });
    const response = await admin.request('POST', '/api/system/backup', { body: { password } });
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-console-e2e-'));
    backupFile = path.join(dir, 'box.cellarbackup');
    writeFileSync(backupFile, Buffer.from(await response.arrayBuffer()));
    const root = await fetch(`${box.url}/api/system/tls/root-ca.crt`);
    rootFingerprint = new X509Certificate(await root.text()).fingerprint256;
    browser = await launchChromium();
    page = await openConsolePage(browser, pages.url, serviceBridge(consoleWithoutMdns(path.join(dir, 'boxes.json'))));
  });
  after(async () => {
    await browser?.close();
    await box?.close();
    pages?.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('adds a box by address, shows its root fingerprint beside the box one and trusts it only when both match', async () => {
    await page.getByLabel(en['boxes.add.label']).fill('not a box/path');
    await page.keyboard.press('Enter');
    await expectText(page.getByRole('alert').first(), en['error.console.address.invalid']);
    await page.getByLabel(en['boxes.add.label']).fill(box.url);
    await page.keyboard.press('Enter');
    const card = page.locator('li.card').filter({ hasText: '127.0.0.1' });
    await expectText(card.locator('.trust-state'), en['boxes.untrusted']);
    await card.getByRole('button', { name: en['boxes.trust'] }).click();
    const dialog = page.getByRole('dialog');
    await expectText(dialog.getByTestId('received-fingerprint'), rootFingerprint);
    // The comparison is required: with the field empty there is nothing to confirm, and Enter does nothing.
    await expectText(dialog.getByTestId('trust-required'), en['trust.required']);
    expect(await dialog.getByRole('button', { name: en['trust.confirm'] }).isDisabled()).to.equal(true);
    await dialog.getByLabel(en['trust.box']).press('Enter');
    expect(await dialog.count()).to.equal(1);
    // What the root may vouch for, in plain words, before the user confirms.
    expect(await dialog.getByTestId('trust-scope').textContent()).to.match(
      /^What trusting means: this root may then vouch, for this console, only for the box's own names and their subdomains \(.*localhost.*\) and for private addresses \(.*127\.0\.0\.0\/8.*\)/,
    );
    await dialog.getByLabel(en['trust.box']).fill('00:11:22');
    await expectText(dialog.getByRole('alert').filter({ hasText: en['trust.mismatch'] }), en['trust.mismatch']);
    expect(await dialog.getByRole('button', { name: en['trust.confirm'] }).isDisabled()).to.equal(true);
    await dialog.getByLabel(en['trust.box']).fill(rootFingerprint.toLowerCase());
    await expectText(dialog.getByRole('status'), en['trust.match']);
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('console-trust-390') });
    await dialog.getByRole('button', { name: en['trust.confirm'] }).press('Enter');
    await expectText(card.locator('.trust-state'), en['boxes.trusted']);
    expect(await card.getByRole('button', { name: en['boxes.open'] }).count()).to.equal(1);
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
  });

  it('asks before forgetting a box', async () => {
    const card = page.locator('li.card').filter({ hasText: '127.0.0.1' });
    await card.getByRole('button', { name: en['boxes.forget'] }).click();
    await page.getByRole('dialog').getByRole('button', { name: en['trust.cancel'] }).click();
    expect(await card.count()).to.equal(1);
  });

  it('opens a real backup offline: a wrong password is refused, then summary and parts show without secrets, in German too', async () => {
    await page.getByRole('button', { name: en['nav.backup'] }).click();
    await page.getByLabel(en['backup.file']).setInputFiles(backupFile);
    await page.getByLabel(en['backup.password']).fill('wrong passphrase');
    await page.getByLabel(en['backup.password']).press('Enter');
    await expectText(page.getByRole('alert').first(), en['error.backup.password.wrong']);
    // The refusal said in English follows a switch to German, and back.
    await page.getByLabel(en['app.language']).selectOption('de');
    await expectText(page.getByRole('alert').first(), de['error.backup.password.wrong']);
    expect(await englishShown(page, en, de, ['app.', 'nav.', 'backup.', 'error.'])).to.deep.equal([]);
    await page.getByLabel(de['app.language']).selectOption('en');
    await expectText(page.getByRole('alert').first(), en['error.backup.password.wrong']);
    await page.getByLabel(en['backup.password']).fill(password);
    await page.getByRole('button', { name: en['backup.submit'], exact: true }).click();
    const users = page.locator('details[data-part="users"]');
    await users.locator('summary').click();
    await expectText(users.locator('summary .ui-hint'), 'users: 2, totp: 0, recoveryCodes: 0, accountIds: 2, host: 0');
    expect(await users.getByRole('cell', { name: 'bob', exact: true }).count()).to.equal(1);
    expect(await page.content()).not.to.match(/\$2[aby]\$|password_hash/);
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('console-backup-390'), fullPage: true });
    await page.getByLabel(en['app.language']).selectOption('de');
    await expectText(page.getByRole('heading', { level: 2 }), de['backup.title']);
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
  });
});
