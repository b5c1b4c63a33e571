import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildAppPackage } from '../../build/scripts/build-app-package.js';
import de from '../../web/src/apps/app-center/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/app-center/i18n/en.json' with { type: 'json' };
import { assertBrowserPrerequisites, launchChromium, screenshotPath, signInThroughPage, webDir } from '../helpers/browser.ts';
import { adminPassword, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { tgzOf } from '../helpers/tar-builder.ts';

const app = '/app/org.service.app-center';
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

describe('e2e: App Center', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let work: string;
  let hello: string;

  before(async () => {
    assertBrowserPrerequisites();
    work = mkdtempSync(path.join(tmpdir(), 'cellar-app-center-'));
    hello = await buildAppPackage('examples/hello-app', work);
    box = await startTestDaemon({ webDir });
    browser = await launchChromium();
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    await signInThroughPage(page, box.url, 'admin', adminPassword);
  });

  after(async () => {
    await browser?.close();
    await box?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const openUpload = async (p: Page, words: typeof en) => {
    await p.goto(`${box.url}${app}/upload`);
    await p.getByRole('region', { name: words['appCenter.upload.drop'] }).waitFor({ timeout: 15_000 });
  };
  const preview = (p: Page, words: typeof en) => p.getByRole('article', { name: words['appCenter.preview.label'] });

  it('uploads the example app and shows its preview, asking consent before Install', async () => {
    await openUpload(page, en);
    await page.locator('input[type=file]').setInputFiles(hello);
    const article = preview(page, en);
    await article.waitFor({ timeout: 15_000 });
    await article.getByRole('heading', { name: 'Hello 1.0.0' }).waitFor();
    expect(page.url()).to.match(new RegExp(`${app}/upload/[0-9a-f]{32}$`));
    const text = (await article.textContent()) ?? '';
    for (const expected of [
      en['appCenter.preview.action.install'],
      'org.example.hello',
      'The Cellar developers',
      en['appCenter.preview.backendYes'],
      en['appCenter.permission.notifications'],
      'Keeps the greetings you save',
      en['appCenter.change.added'],
    ])
      expect(text, expected).to.contain(expected);
    // The icon is the package's SVG, shown as an image that has loaded.
    const icon = article.getByRole('img', { name: fill(en['appCenter.preview.iconAlt'], { name: 'Hello' }) });
    expect(await icon.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).to.equal(true);

    const install = article.getByRole('button', { name: en['appCenter.install.run.install'], exact: true });
    expect(await install.isDisabled()).to.equal(true);
    await article.getByLabel(fill(en['appCenter.consent.check'], { name: 'Hello' })).check();
    expect(await article.getByRole('radio', { name: en['appCenter.install.everybody'] }).isChecked()).to.equal(true);
    await page.screenshot({ path: screenshotPath('app-center-preview-en'), fullPage: true });

    // A reload keeps the preview: it is read again from the box.
    await page.reload();
    await preview(page, en).getByRole('heading', { name: 'Hello 1.0.0' }).waitFor({ timeout: 15_000 });
  });

  it('discards the package: the box no longer keeps it', async () => {
    const packageId = page.url().split('/').pop()!;
    const admin = await box.signIn();
    await preview(page, en).getByRole('button', { name: en['appCenter.install.discard'] }).click();
    await page.getByRole('region', { name: en['appCenter.upload.drop'] }).waitFor();
    const answer = await admin.api.apps.package({ params: { packageId } }).catch((err: { code?: string }) => err.code);
    expect(answer).to.equal('app.package.not_found');
  });

  it('says in a sentence which entry a hostile package holds and why it is refused', async () => {
    const evil = path.join(work, 'evil-1.0.0.serviceapp');
    writeFileSync(
      evil,
      tgzOf([
        { name: 'manifest.json', body: '{}' },
        { name: 'frontend/../../evil.txt', body: 'x' },
      ]),
    );
    await openUpload(page, en);
    await page.locator('input[type=file]').setInputFiles(evil);
    await page.getByText(fill(en['appCenter.refused.dotDot'], { entry: 'frontend/../../evil.txt' })).waitFor({ timeout: 15_000 });

    const notGzip = path.join(work, 'plain-1.0.0.serviceapp');
    writeFileSync(notGzip, 'just text, no archive');
    await page.locator('input[type=file]').setInputFiles(notGzip);
    await page.getByText(en['appCenter.invalid.notGzip']).waitFor({ timeout: 15_000 });

    const other = path.join(work, 'notes.txt');
    writeFileSync(other, 'x');
    await page.locator('input[type=file]').setInputFiles(other);
    await page.getByText(fill(en['appCenter.upload.notPackage'], { name: 'notes.txt' })).waitFor();
  });

  it('shows the preview at phone size in German, nothing off the screen, consent reachable by keyboard', async () => {
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    const phone = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } });
    try {
      const p = await phone.newPage();
      await signInThroughPage(p, box.url, 'admin', adminPassword);
      await openUpload(p, de);
      await p.locator('input[type=file]').setInputFiles(hello);
      const article = preview(p, de);
      await article.getByRole('heading', { name: 'Hello 1.0.0' }).waitFor({ timeout: 15_000 });
      expect(await article.textContent()).to.contain(de['appCenter.permission.notifications']);
      const consent = article.getByLabel(fill(de['appCenter.consent.check'], { name: 'Hello' }));
      await consent.focus();
      await p.keyboard.press('Space');
      expect(await consent.isChecked()).to.equal(true);
      await p.keyboard.press('Tab');
      expect(await p.evaluate(() => document.activeElement?.getAttribute('value'))).to.equal('everybody');
      const offscreen = await p.evaluate(() => {
        const width = window.innerWidth;
        return [...document.querySelectorAll('.app-center button, .app-center input, .app-center select, .app-center h2')]
          .map((el) => ({ text: (el.textContent ?? '').trim().slice(0, 30), right: el.getBoundingClientRect().right }))
          .filter((e) => e.right > width + 0.5);
      });
      expect(offscreen).to.deep.equal([]);
      await p.screenshot({ path: screenshotPath('app-center-preview-de-phone'), fullPage: true });
    } finally {
      await phone.close();
      await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });
});
