import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import de from '../../web/src/apps/app-center/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/app-center/i18n/en.json' with { type: 'json' };
import desktopDe from '../../web/src/desktop/i18n/de.json' with { type: 'json' };
import type { CatalogSource } from '../../build/scripts/build-catalog.ts';
import { exampleVariant, fill } from '../helpers/app-packages.ts';
import { assertBrowserPrerequisites, launchChromium, screenshotPath, signInThroughPage, webDir } from '../helpers/browser.ts';
import { adminPassword, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { startGitHttp, type LoopbackServer } from '../helpers/git-servers.ts';
import { isFinished, waitForJob } from '../helpers/jobs.ts';
import { appFolder, catalogBranch } from '../helpers/store-catalogs.ts';

const app = '/app/org.service.app-center';

describe('e2e: App Center Store', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;
  let page: Page;
  let work: string;
  let git: LoopbackServer;
  const gitRoot = () => path.join(work, 'git');
  const source = (versions: string[]): CatalogSource => ({
    name: 'Garden',
    apps: [
      { versions: versions.map((version) => ({ folder: appFolder(work, { id: 'org.example.notes', version, name: 'Notes', description: 'Keeps notes' }) })) },
    ],
  });
  const installedVersion = async () => (await (await box.signIn()).api.apps.list()).apps.find((a) => a.id === 'org.example.notes')?.manifest.version;

  before(async () => {
    assertBrowserPrerequisites();
    work = mkdtempSync(path.join(tmpdir(), 'cellar-store-e2e-'));
    await catalogBranch(gitRoot(), 'garden', 'catalog', source(['1.0.0']));
    git = await startGitHttp(gitRoot());
    box = await startTestDaemon({ webDir }, { store: { projectCatalogs: [] } });
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
    await git?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('adds a catalog, finds an app in it and installs it through the preview and consent', async () => {
    await page.goto(`${box.url}${app}/store/catalogs`);
    await page.getByRole('button', { name: en['appCenter.catalogs.add'] }).first().click();
    const dialog = page.getByRole('dialog', { name: en['appCenter.catalogs.addTitle'] });
    await dialog.getByLabel(en['appCenter.catalogs.url']).fill(`${git.url}/garden/.git`);
    await dialog.getByRole('button', { name: en['appCenter.catalogs.add'] }).click();
    await dialog.waitFor({ state: 'detached' });
    const list = page.getByRole('list', { name: en['appCenter.catalogs.title'] });
    await list.getByText(en['appCenter.catalogs.state.ok'], { exact: false }).waitFor({ timeout: 30_000 });
    expect(await list.textContent()).to.contain(en['appCenter.store.unverified']);
    await page.screenshot({ path: screenshotPath('app-center-catalogs-en'), fullPage: true });

    await page.getByRole('button', { name: en['appCenter.store.back'] }).click();
    await page.getByLabel(en['appCenter.store.search']).fill('keeps');
    const apps = page.getByRole('list', { name: en['appCenter.store.apps'] });
    await apps.getByRole('button', { name: /Notes/ }).click();
    await page.getByRole('heading', { name: 'Notes' }).waitFor();
    await page.getByRole('button', { name: en['appCenter.store.action.install'] }).click();
    const article = page.getByRole('article', { name: en['appCenter.preview.label'] });
    await article.getByRole('heading', { name: 'Notes 1.0.0' }).waitFor({ timeout: 15_000 });
    await article.getByLabel(fill(en['appCenter.consent.check'], { name: 'Notes' })).check();
    await article.getByRole('button', { name: en['appCenter.install.run.install'], exact: true }).click();
    await article.getByText(fill(en['appCenter.install.succeeded'], { name: 'Notes', version: '1.0.0' })).waitFor({ timeout: 30_000 });
    expect(await installedVersion()).to.equal('1.0.0');
  });

  it('updates the app from the updates list with one click', async () => {
    await catalogBranch(gitRoot(), 'garden', 'catalog', source(['1.0.0', '1.1.0']));
    await page.goto(`${box.url}${app}/store/catalogs`);
    await page.getByRole('button', { name: en['appCenter.catalogs.sync'] }).click();
    await page.getByRole('tab', { name: en['appCenter.section.store'] }).click();
    expect(page.url()).to.equal(`${box.url}${app}/store`);
    const line = fill(en['appCenter.store.updateLine'], { app: 'Notes', from: '1.0.0', to: '1.1.0' });
    await page.getByText(line).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: screenshotPath('app-center-store-updates-en'), fullPage: true });
    await page.getByRole('button', { name: en['appCenter.store.update'], exact: true }).click();
    await page.getByText(fill(en['appCenter.store.updated'], { app: 'Notes', version: '1.1.0' })).waitFor({ timeout: 30_000 });
    expect(await installedVersion()).to.equal('1.1.0');
  });

  it('shows the Store and the catalogs at phone size in German with nothing off the screen', async () => {
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    const phone = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } });
    try {
      const p = await phone.newPage();
      await signInThroughPage(p, box.url, 'admin', adminPassword);
      for (const [route, ready] of [
        ['store/custom-1/org.example.notes', de['appCenter.store.versions']],
        ['store/catalogs', de['appCenter.storeSettings.title']],
      ] as const) {
        await p.goto(`${box.url}${app}/${route}`);
        await p.getByText(ready).first().waitFor({ timeout: 15_000 });
        const offscreen = await p.evaluate(() => {
          const width = window.innerWidth;
          return [...document.querySelectorAll('.app-center button, .app-center input, .app-center select, .app-center h2, .app-center li')]
            .map((el) => ({ text: (el.textContent ?? '').trim().slice(0, 30), right: el.getBoundingClientRect().right }))
            .filter((e) => e.right > width + 0.5);
        });
        expect(offscreen, route).to.deep.equal([]);
        await p.screenshot({ path: screenshotPath(`app-center-${route.replace(/\W+/g, '-')}-de-phone`), fullPage: true });
      }
    } finally {
      await phone.close();
      await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });

  it('shows the update notification of the check in the user language at phone size and opens the Store from it', async () => {
    await catalogBranch(gitRoot(), 'garden', 'catalog', source(['1.0.0', '1.1.0', '1.2.0']));
    const admin = await box.signIn();
    const check = await admin.api.store.check();
    expect((await waitForJob(admin, check.id, isFinished, 'the check')).state).to.equal('succeeded');
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    const phone = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } });
    try {
      const p = await phone.newPage();
      await signInThroughPage(p, box.url, 'admin', adminPassword);
      await p.getByRole('button', { name: fill(desktopDe['notify.button'], { count: 1 }) }).click();
      const centre = p.getByRole('region', { name: desktopDe['notify.title'] });
      const params = { appId: 'org.example.notes', version: '1.2.0', installedVersion: '1.1.0' };
      await centre.getByText(fill(de['notification.store.update.available.title'], params)).waitFor();
      await centre.getByText(fill(de['notification.store.update.available.body'], params)).waitFor();
      const offscreen = await p.evaluate(() =>
        [...document.querySelectorAll('.tray-panel h2, .tray-panel button, [data-notification]')]
          .map((el) => ({ text: (el.textContent ?? '').trim().slice(0, 30), right: el.getBoundingClientRect().right }))
          .filter((e) => e.right > window.innerWidth + 0.5),
      );
      expect(offscreen).to.deep.equal([]);
      await p.screenshot({ path: screenshotPath('store-update-notification-de-phone') });
      await centre.getByRole('button', { name: desktopDe['notify.open'] }).click();
      await p.getByText(fill(de['appCenter.store.updateLine'], { app: 'Notes', from: '1.1.0', to: '1.2.0' })).waitFor({ timeout: 15_000 });
    } finally {
      await phone.close();
      await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });

  it('installs a version from another source over an app only once the administrator agrees to switch its source', async () => {
    // Other was uploaded by hand; another catalog offers a newer version under its id.
    await catalogBranch(gitRoot(), 'orchard', 'catalog', {
      name: 'Orchard',
      apps: [{ versions: [{ folder: appFolder(work, { id: 'org.example.other', version: '2.0.0', name: 'Other' }) }] }],
    });
    const admin = await box.signIn();
    const orchard = await admin.api.store.addCatalog({ body: { url: `${git.url}/orchard/.git` } });
    expect((await waitForJob(admin, (await admin.api.store.sync({ params: { key: orchard.key } })).id, isFinished)).state).to.equal('succeeded');
    await page.goto(`${box.url}${app}/store/${orchard.id}/org.example.other`);
    await page.getByRole('button', { name: en['appCenter.store.action.update'] }).click();
    const article = page.getByRole('article', { name: en['appCenter.preview.label'] });
    await article.getByRole('heading', { name: 'Other 2.0.0' }).waitFor({ timeout: 15_000 });
    const sources = { name: 'Other', installed: en['appCenter.preview.sourceUpload'], source: orchard.id };
    await article.getByText(fill(en['appCenter.consent.source'], sources)).waitFor();
    const run = article.getByRole('button', { name: en['appCenter.install.run.update'], exact: true });
    expect(await run.isDisabled()).to.equal(true);
    await article.getByLabel(fill(en['appCenter.consent.check'], { name: 'Other' })).check();
    // The permissions agreed to, the source still holds the update back.
    expect(await run.isDisabled()).to.equal(true);
    await article.getByLabel(fill(en['appCenter.consent.sourceCheck'], { source: orchard.id })).check();
    await page.screenshot({ path: screenshotPath('app-center-preview-source-switch-en'), fullPage: true });
    await run.click();
    await article.getByText(fill(en['appCenter.install.succeeded'], { name: 'Other', version: '2.0.0' })).waitFor({ timeout: 30_000 });
    const other = (await admin.api.apps.list()).apps.find((a) => a.id === 'org.example.other');
    expect([other?.manifest.version, other?.source]).to.deep.equal(['2.0.0', orchard.id]);
  });
});
