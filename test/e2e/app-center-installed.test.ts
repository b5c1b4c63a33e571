import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { buildAppPackage } from '../../build/scripts/build-app-package.js';
import de from '../../web/src/apps/app-center/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/app-center/i18n/en.json' with { type: 'json' };
import { exampleVariant, fill } from '../helpers/app-packages.ts';
import { assertBrowserPrerequisites, launchChromium, screenshotPath, signInThroughPage, webDir } from '../helpers/browser.ts';
import { adminPassword, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { isFinished, waitForJob } from '../helpers/jobs.ts';

const app = '/app/org.service.app-center';

describe('e2e: App Center with an app pool', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;
  let page: Page;
  let work: string;
  const appId = 'org.example.hello';

  before(async () => {
    assertBrowserPrerequisites();
    work = mkdtempSync(path.join(tmpdir(), 'cellar-app-center-'));
    box = await startTestDaemon({ webDir });
    // Another app installed first made `tank` the app pool (a folder on this development box).
    const admin = await box.signIn();
    const other = await exampleVariant(work, 'other', { id: 'org.example.other', name: 'Other' });
    const kept = await admin.api.apps.uploadPackage({ body: readFileSync(other) });
    const job = await admin.api.apps.install({ params: { packageId: kept.packageId }, body: { pool: 'tank' } });
    expect((await waitForJob(admin, job.id, isFinished)).state).to.equal('succeeded');
    browser = await launchChromium();
    page = await (await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } })).newPage();
    await signInThroughPage(page, box.url, 'admin', adminPassword);
  });

  after(async () => {
    await browser?.close();
    await box?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const installed = async () => (await (await box.signIn()).api.apps.list()).apps.find((a) => a.id === appId);
  const uploadPreview = async (file: string) => {
    await page.goto(`${box.url}${app}/upload`);
    await page.locator('input[type=file]').setInputFiles(file);
    const article = page.getByRole('article', { name: en['appCenter.preview.label'] });
    await article.waitFor({ timeout: 15_000 });
    return article;
  };

  it('installs the example app with a progress bar and shows it in the list, live', async () => {
    const article = await uploadPreview(await buildAppPackage('examples/hello-app', work));
    expect(await article.getByLabel(en['appCenter.install.pool']).count()).to.equal(0);
    await article.getByRole('radio', { name: en['appCenter.install.admins'] }).check();
    await article.getByLabel(fill(en['appCenter.consent.check'], { name: 'Hello' })).check();
    await article.getByRole('button', { name: en['appCenter.install.run.install'], exact: true }).click();
    await article.getByRole('progressbar', { name: fill(en['appCenter.install.running'], { name: 'Hello' }) }).waitFor();
    await article.getByText(fill(en['appCenter.install.succeeded'], { name: 'Hello', version: '1.0.0' })).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: screenshotPath('app-center-installed-en'), fullPage: true });
    expect((await installed())?.state).to.equal('enabled');

    await page.getByRole('tab', { name: en['appCenter.section.installed'] }).click();
    const list = page.getByRole('list', { name: en['appCenter.list.label'] });
    const card = list.getByRole('button', { name: /^Hello/ });
    await card.waitFor();
    const text = (await card.textContent()) ?? '';
    for (const expected of ['1.0.0', en['appCenter.state.enabled'], en['appCenter.policy.default'], en['appCenter.logLevel.info']])
      expect(text).to.contain(expected);
    expect(await card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).to.equal(true);
    expect(await list.getByRole('button', { name: /^Other/ }).count()).to.equal(1);
    await page.getByText(fill(en['appCenter.list.pool'], { pool: 'tank' })).waitFor();
    // Another administrator's change reaches the open list through apps/admin, without a reload.
    const admin = await box.signIn();
    await admin.api.apps.update({ params: { appId: 'org.example.other' }, body: { enabled: false } });
    await list
      .getByRole('button', { name: /^Other/ })
      .getByText(`${en['appCenter.col.state']}: ${en['appCenter.state.disabled']}`)
      .waitFor();
    await admin.api.apps.update({ params: { appId: 'org.example.other' }, body: { enabled: true } });
    await page.screenshot({ path: screenshotPath('app-center-list-en'), fullPage: true });
  });

  it('changes an app in its details: debug logging, update policy, a permission, on and off; grants show each user', async () => {
    await page.goto(`${box.url}${app}/installed/${appId}`);
    await page.getByRole('heading', { name: 'Hello', exact: true }).waitFor({ timeout: 15_000 });
    const eventually = async (probe: (a: NonNullable<Awaited<ReturnType<typeof installed>>>) => boolean, what: string) => {
      for (let i = 0; i < 50; i++) {
        const a = await installed();
        if (a && probe(a)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`never saw ${what}`);
    };
    await page.getByLabel(en['appCenter.detail.debug']).check();
    await eventually((a) => a.logLevel === 'debug', 'debug logging');
    await page.getByLabel(en['appCenter.detail.updatePolicy']).selectOption({ label: en['appCenter.policy.notify'] });
    await eventually((a) => a.updatePolicy === 'notify', 'the notify policy');
    await page.getByLabel(en['appCenter.permission.notifications']).uncheck();
    await eventually((a) => a.permissions.revoked.includes('notifications'), 'notifications revoked');
    await page.getByLabel(en['appCenter.detail.enabled']).uncheck();
    await eventually((a) => a.state === 'disabled', 'the app switched off');
    await page.getByLabel(en['appCenter.detail.enabled']).check();
    await eventually((a) => a.state === 'enabled', 'the app switched on');

    // Installed for administrators only: the admin may use it, through the administrator right.
    const result = page.getByRole('list', { name: en['appCenter.grants.result'] });
    await result.getByText(`admin: ${en['appCenter.grants.allowed']} (${en['appCenter.grants.via.admin']})`).waitFor();
    await page.getByRole('checkbox', { name: 'users', exact: true }).check();
    await page.getByRole('button', { name: en['appCenter.common.save'] }).click();
    await page.getByText(en['appCenter.grants.saved']).waitFor();
    const admin = await box.signIn();
    expect((await admin.api.apps.grants({ params: { appId } })).groups).to.have.length(1);
    const storage = page.getByRole('list', { name: en['appCenter.storage.title'] });
    expect(await storage.textContent())
      .to.contain('greetings')
      .and.contain(en['appCenter.storage.unmapped']);
    await page.screenshot({ path: screenshotPath('app-center-details-en'), fullPage: true });
  });

  it('updates to 1.1.0 showing the change, then rolls back after confirming', async () => {
    const file = await exampleVariant(work, 'hello-1.1.0', { version: '1.1.0', permissions: ['notifications', 'files'] });
    const article = await uploadPreview(file);
    expect(await article.textContent()).to.contain(fill(en['appCenter.preview.action.update'], { installed: '1.0.0' }));
    const files = article.getByRole('listitem').filter({ hasText: en['appCenter.permission.files'] }).first();
    expect(await files.textContent()).to.contain(en['appCenter.change.added']);
    // Notifications were revoked above: the consent leaves them out and says they stay revoked.
    await article.getByText(fill(en['appCenter.consent.staysRevoked'], { permissions: en['appCenter.permission.notifications'] })).waitFor();
    // An update keeps who may use the app: no access choice.
    expect(await article.getByRole('radio', { name: en['appCenter.install.everybody'] }).count()).to.equal(0);
    await article.getByLabel(fill(en['appCenter.consent.check'], { name: 'Hello' })).check();
    await article.getByRole('button', { name: en['appCenter.install.run.update'], exact: true }).click();
    await article.getByText(fill(en['appCenter.install.succeeded'], { name: 'Hello', version: '1.1.0' })).waitFor({ timeout: 30_000 });
    await article.getByRole('button', { name: en['appCenter.install.show'] }).click();

    await page.getByRole('button', { name: fill(en['appCenter.rollback.button'], { version: '1.0.0' }) }).click();
    const dialog = page.getByRole('dialog', { name: fill(en['appCenter.rollback.title'], { version: '1.0.0' }) });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: en['appCenter.rollback.run'] }).click();
    await page.getByText(fill(en['appCenter.rollback.succeeded'], { name: 'Hello', version: '1.0.0' })).waitFor({ timeout: 30_000 });
    expect((await installed())?.manifest.version).to.equal('1.0.0');
  });

  it('uninstalls after asking whether to keep the data; Cancel changes nothing', async () => {
    await page.goto(`${box.url}${app}/installed/${appId}`);
    await page.getByRole('button', { name: en['appCenter.uninstall.button'] }).click();
    let dialog = page.getByRole('dialog', { name: fill(en['appCenter.uninstall.title'], { name: 'Hello' }) });
    await dialog.getByRole('button', { name: en['appCenter.common.cancel'] }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await installed()).to.not.equal(undefined);

    await page.getByRole('button', { name: en['appCenter.uninstall.button'] }).click();
    dialog = page.getByRole('dialog', { name: fill(en['appCenter.uninstall.title'], { name: 'Hello' }) });
    expect(await dialog.getByRole('radio', { name: en['appCenter.uninstall.keep'] }).isChecked()).to.equal(true);
    await page.screenshot({ path: screenshotPath('app-center-uninstall-en') });
    await dialog.getByRole('button', { name: en['appCenter.uninstall.run'] }).click();
    await page.getByRole('list', { name: en['appCenter.list.label'] }).waitFor({ timeout: 30_000 });
    expect(await installed()).to.equal(undefined);
    expect(
      await page
        .getByRole('list', { name: en['appCenter.list.label'] })
        .getByRole('button', { name: /^Hello/ })
        .count(),
    ).to.equal(0);
  });

  it('shows an app’s details at phone size in German with nothing off the screen', async () => {
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    const phone = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } });
    try {
      const p = await phone.newPage();
      await signInThroughPage(p, box.url, 'admin', adminPassword);
      await p.goto(`${box.url}${app}/installed/org.example.other`);
      await p.getByRole('heading', { name: 'Other', exact: true }).waitFor({ timeout: 15_000 });
      await p.getByText(de['appCenter.grants.title']).waitFor();
      await p.getByRole('button', { name: de['appCenter.uninstall.button'] }).waitFor();
      const offscreen = await p.evaluate(() => {
        const width = window.innerWidth;
        return [...document.querySelectorAll('.app-center button, .app-center input, .app-center select, .app-center h2, .app-center h3')]
          .map((el) => ({ text: (el.textContent ?? '').trim().slice(0, 30), right: el.getBoundingClientRect().right }))
          .filter((e) => e.right > width + 0.5);
      });
      expect(offscreen).to.deep.equal([]);
      await p.screenshot({ path: screenshotPath('app-center-details-de-phone'), fullPage: true });
    } finally {
      await phone.close();
      await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });
  it('sets an app’s quota by keyboard at phone size in German, saying what this machine does not enforce', async () => {
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    const phone = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } });
    try {
      const p = await phone.newPage();
      await signInThroughPage(p, box.url, 'admin', adminPassword);
      await p.goto(`${box.url}${app}/installed/org.example.other`);
      const section = p.getByRole('region', { name: de['appCenter.resources.title'] });
      await section.waitFor({ timeout: 15_000 });
      // A development box keeps apps' data in folders: the quota is kept, not enforced, and it says so.
      await section.getByText(de['appCenter.resources.quotaNotEnforced']).waitFor();
      expect(await section.getByTestId('quota-in-force').textContent()).to.contain('10');
      // Limits hold only with the daemon as root (cgroups of its own); otherwise the page says they do not.
      expect(await section.getByTestId('limits-not-enforced').count()).to.equal(process.getuid?.() === 0 ? 0 : 1);
      await section.getByRole('radio').first().focus();
      // Arrow keys move through the radio group; Tab reaches the amount, then the button.
      await p.keyboard.press('ArrowDown');
      await p.keyboard.press('ArrowDown');
      expect(await section.getByLabel(de['appCenter.resources.setOwn']).isChecked()).to.equal(true);
      await p.keyboard.press('Tab');
      await p.keyboard.press('Control+A');
      await p.keyboard.type('2');
      await p.keyboard.press('Tab');
      await p.keyboard.press('Enter');
      await section.getByText(de['appCenter.resources.saved']).waitFor();
      const other = (await (await box.signIn()).api.apps.list()).apps.find((a) => a.id === 'org.example.other');
      expect(other?.quota).to.deep.include({ bytes: 2 * 1024 ** 3, effectiveBytes: 2 * 1024 ** 3 });
      const offscreen = await p.evaluate(() => {
        const width = window.innerWidth;
        return [...document.querySelectorAll('.app-center button, .app-center input, .app-center dd, .app-center h3, .app-center h4')]
          .map((el) => ({ text: (el.textContent ?? '').trim().slice(0, 30), right: el.getBoundingClientRect().right }))
          .filter((e) => e.right > width + 0.5);
      });
      expect(offscreen).to.deep.equal([]);
      await p.screenshot({ path: screenshotPath('app-center-resources-de-phone'), fullPage: true });
    } finally {
      await phone.close();
      await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });
});
