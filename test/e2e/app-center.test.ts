import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildAppPackage } from '../../build/scripts/build-app-package.js';
import de from '../../web/src/apps/app-center/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/app-center/i18n/en.json' with { type: 'json' };
import { assertBrowserPrerequisites, launchChromium, screenshotPath, signInThroughPage, webDir } from '../helpers/browser.ts';
import { adminPassword, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { isFinished, waitForJob } from '../helpers/jobs.ts';
import { tgzOf } from '../helpers/tar-builder.ts';

const app = '/app/org.service.app-center';
/** The example app with some manifest fields changed, built into a package of its own. */
async function variant(work: string, name: string, change: Record<string, unknown>, extra: Record<string, Buffer> = {}): Promise<string> {
  const folder = path.join(work, name);
  cpSync('examples/hello-app', folder, { recursive: true });
  for (const [file, body] of Object.entries(extra)) writeFileSync(path.join(folder, file), body);
  const manifest = JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify({ ...manifest, ...change }));
  return buildAppPackage(folder, work);
}

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
    // The first app chooses the app pool; this development box lists none, so Install stays off.
    await article.getByText(en['appCenter.install.noPools']).waitFor();
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
    const slow = await variant(work, 'big', { id: 'org.example.big' }, { 'frontend/noise.bin': randomBytes(400 * 1024) });
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
    const other = await variant(work, 'other', { id: 'org.example.other', name: 'Other' });
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
    const file = await variant(work, 'hello-1.1.0', { version: '1.1.0', permissions: ['notifications', 'files'] });
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
});
