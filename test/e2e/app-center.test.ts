import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildAppPackage } from '../../build/scripts/build-app-package.js';
import de from '../../web/src/apps/app-center/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/app-center/i18n/en.json' with { type: 'json' };
import common from '../../web/src/lib/i18n/en.json' with { type: 'json' };
import { exampleVariant, fill } from '../helpers/app-packages.ts';
import { assertBrowserPrerequisites, launchChromium, screenshotPath, signInThroughPage, webDir } from '../helpers/browser.ts';
import { adminPassword, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { hidePrograms } from '../helpers/host-path.ts';
import { tgzOf } from '../helpers/tar-builder.ts';

const app = '/app/org.service.app-center';

describe('e2e: App Center', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let work: string;
  let hello: string;
  let restorePath: () => void = () => {};

  before(async () => {
    assertBrowserPrerequisites();
    // The box has no ZFS, so no pool, whatever pools this machine holds.
    restorePath = hidePrograms(['zpool', 'zfs']);
    work = mkdtempSync(path.join(tmpdir(), 'cellar-app-center-'));
    hello = await buildAppPackage('examples/hello-app', work);
    box = await startTestDaemon({ webDir });
    browser = await launchChromium();
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    await signInThroughPage(page, box.url, 'admin', adminPassword);
  });

  after(async () => {
    restorePath();
    await browser?.close();
    await box?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const openUpload = async (p: Page, words: typeof en) => {
    await p.goto(`${box.url}${app}/upload`);
    await p.getByRole('region', { name: words['appCenter.upload.drop'] }).waitFor({ timeout: 15_000 });
  };
  const preview = (p: Page, words: typeof en) => p.getByRole('article', { name: words['appCenter.preview.label'] });

  it('invites an upload while no app is installed', async () => {
    await page.goto(`${box.url}${app}`);
    await page.getByText(en['appCenter.list.empty']).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: en['appCenter.list.upload'] }).click();
    await page.getByRole('region', { name: en['appCenter.upload.drop'] }).waitFor();
    expect(page.url()).to.equal(`${box.url}${app}/upload`);
    // The box drops what it had received once the connection ends.
    const packages = path.join(box.dataDir, 'apps', 'packages');
    const left = () => (existsSync(packages) ? readdirSync(packages) : []);
    for (let i = 0; i < 50 && left().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(left()).to.deep.equal([]);
  });

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
    // The first app chooses the app pool; this box has no ZFS, so it says what to install and Install stays off.
    // Whichever of its programs the box asked first (zpool lists, zfs tells the version) is named.
    const missing = (tool: string) => article.getByText(fill(common['error.host.tool.missing'], { feature: 'ZFS', tool, package: 'zfsutils-linux' }));
    await missing('zpool').or(missing('zfs')).waitFor();
    expect(await article.getByLabel(en['appCenter.install.pool']).count()).to.equal(0);
    expect(await install.isDisabled()).to.equal(true);
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

  it('shows the upload’s progress on a slow line and cancels it, leaving no package', async () => {
    // Random bytes do not compress: the package stays about 400 KB.
    const slow = await exampleVariant(work, 'big', { id: 'org.example.big' }, { 'frontend/noise.bin': randomBytes(400 * 1024) });
    const cdp = await context.newCDPSession(page);
    await openUpload(page, en);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 40 * 1024 });
    try {
      await page.locator('input[type=file]').setInputFiles(slow);
      const bar = page.getByRole('progressbar', { name: fill(en['appCenter.upload.progress'], { name: path.basename(slow) }) });
      await bar.waitFor();
      let percent = 0;
      for (let i = 0; i < 100 && percent === 0; i++) {
        percent = Number((await bar.getAttribute('aria-valuenow')) ?? 0);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(percent).to.be.within(1, 99);
      await page.getByRole('button', { name: en['appCenter.upload.cancel'] }).click();
      await page.getByRole('button', { name: en['appCenter.upload.choose'] }).waitFor();
      expect(await bar.count()).to.equal(0);
    } finally {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    }
    expect(page.url()).to.equal(`${box.url}${app}/upload`);
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

    // Past the box's limit: said before a byte is sent (a sparse file, no disk used).
    const huge = path.join(work, 'huge-1.0.0.serviceapp');
    writeFileSync(huge, '');
    truncateSync(huge, 257 * 1024 * 1024);
    await page.locator('input[type=file]').setInputFiles(huge);
    await page.getByText(fill(en['appCenter.upload.tooLarge'], { name: path.basename(huge), size: '257 MiB', limit: '256 MiB' })).waitFor();
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
