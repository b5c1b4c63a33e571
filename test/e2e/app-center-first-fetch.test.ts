import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { freePort } from '../../bench/lib/free-port.ts';
import de from '../../web/src/apps/app-center/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/app-center/i18n/en.json' with { type: 'json' };
import { fill } from '../helpers/app-packages.ts';
import { assertBrowserPrerequisites, launchChromium, phoneViewport, screenshotPath, signInThroughPage, webDir } from '../helpers/browser.ts';
import { adminPassword, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { startGitHttp, type LoopbackServer } from '../helpers/git-servers.ts';
import { appFolder, catalogBranch, testSigningKey } from '../helpers/store-catalogs.ts';

const app = '/app/org.service.app-center';

/** The four ways the App Center is looked at: English and German, a laptop and a phone. */
const views = [
  { language: 'en', dict: en, viewport: { width: 1366, height: 820 }, phone: false },
  { language: 'de', dict: de, viewport: phoneViewport, phone: true },
  { language: 'de', dict: de, viewport: { width: 1366, height: 820 }, phone: false },
  { language: 'en', dict: en, viewport: phoneViewport, phone: true },
] as const;

describe('e2e: App Center fetches the project catalog at its first open', function () {
  this.timeout(180_000);
  let work: string;
  let git: LoopbackServer;
  let keysFile: string;
  let browser: Browser;
  const boxes: TestDaemon[] = [];

  const startBox = async (url: string) => {
    const box = await startTestDaemon(
      { webDir, trustedKeysFile: keysFile },
      { store: { projectCatalogs: [{ id: 'project', name: 'Project', url }], fetchTimeoutMs: 10_000 } },
    );
    boxes.push(box);
    return box;
  };
  const syncJobs = async (box: TestDaemon) => (await (await box.signIn()).api.jobs.list()).filter((j) => j.kind === 'store.sync');

  before(async () => {
    assertBrowserPrerequisites();
    work = mkdtempSync(path.join(tmpdir(), 'cellar-first-fetch-'));
    const key = testSigningKey(work);
    keysFile = key.keysFile;
    const source = {
      name: 'Project',
      apps: [{ versions: [{ folder: appFolder(work, { id: 'org.example.notes', version: '1.0.0', name: 'Notes', description: 'Keeps notes' }) }] }],
    };
    await catalogBranch(path.join(work, 'git'), 'project', 'catalog', source, key.signing);
    git = await startGitHttp(path.join(work, 'git'));
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    for (const box of boxes) await box.close();
    await git?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  for (const view of views.slice(0, 2)) {
    it(`fetches a never-fetched project catalog once when an administrator first opens the Store (${view.language}, ${view.viewport.width} px)`, async () => {
      const box = await startBox(`${git.url}/project/.git`);
      await box.daemon.db.query('UPDATE users SET language = ? WHERE username = ?', { replacements: [view.language, 'admin'] });
      // Nothing calls out before the owner is there.
      expect(await syncJobs(box)).to.deep.equal([]);
      const context = await browser.newContext({ locale: view.language, viewport: view.viewport, hasTouch: view.phone, isMobile: view.phone });
      try {
        const page = await context.newPage();
        await signInThroughPage(page, box.url, 'admin', adminPassword);
        await page.goto(`${box.url}${app}/store`);
        // No button pressed: the apps of the project catalog appear.
        await page.getByRole('list', { name: view.dict['appCenter.store.apps'] }).getByRole('button', { name: /Notes/ }).waitFor({ timeout: 30_000 });
        await page.screenshot({ path: screenshotPath(`app-center-first-fetch-${view.language}-${view.viewport.width}`), fullPage: true });
        // Opened again, the App Center does not fetch again: the daily check and "Fetch now" do from here on.
        await page.reload();
        await page.getByRole('list', { name: view.dict['appCenter.store.apps'] }).getByRole('button', { name: /Notes/ }).waitFor({ timeout: 15_000 });
        const jobs = await syncJobs(box);
        expect(jobs.map((j) => j.state)).to.deep.equal(['succeeded']);
      } finally {
        await context.close();
      }
    });
  }

  it('says in words the owner can act on that the catalog could not be reached, at 1366 and 390 px in English and German', async () => {
    // A loopback port with nothing listening: the connection is refused at once.
    const port = await freePort();
    const box = await startBox(`http://127.0.0.1:${port}/project/.git`);
    const admin = await box.signIn();
    for (const view of views) {
      await box.daemon.db.query('UPDATE users SET language = ? WHERE username = ?', { replacements: [view.language, 'admin'] });
      const context = await browser.newContext({ locale: view.language, viewport: view.viewport, hasTouch: view.phone, isMobile: view.phone });
      try {
        const page = await context.newPage();
        await signInThroughPage(page, box.url, 'admin', adminPassword);
        await page.goto(`${box.url}${app}/store`);
        const unreachable = fill(view.dict['appCenter.catalogs.unreachable'], { host: '127.0.0.1' });
        const alert = page.getByRole('alert').filter({ hasText: unreachable });
        await alert.waitFor({ timeout: 30_000 });
        const text = (await alert.innerText()).replace(/\s+/g, ' ');
        expect(text).to.contain(view.dict['appCenter.catalogs.noCopy']);
        // No copy was ever verified, so none is said to stay in use; git's own words stay folded away.
        expect(text).not.to.match(/verified copy stays|geprüfte Kopie bleibt/);
        expect(await alert.getByText(/Failed to connect|Couldn't connect|fatal:/).isVisible()).to.equal(false);
        expect(await alert.getByRole('button', { name: view.dict['appCenter.catalogs.sync'] }).isVisible()).to.equal(true);
        const offscreen = await page.evaluate(
          () =>
            [...document.querySelectorAll('.app-center [role="alert"] p, .app-center [role="alert"] button')].filter(
              (el) => el.getBoundingClientRect().right > window.innerWidth + 0.5,
            ).length,
        );
        expect(offscreen).to.equal(0);
        await page.screenshot({ path: screenshotPath(`app-center-offline-${view.language}-${view.viewport.width}`), fullPage: true });
        // The Catalogs page says the same.
        await page.goto(`${box.url}${app}/store/catalogs`);
        await page.getByRole('list', { name: view.dict['appCenter.catalogs.title'] }).getByText(unreachable, { exact: false }).waitFor();
      } finally {
        await context.close();
      }
    }
    // The first open fetched once; the later opens did not try again by themselves.
    const jobs = await syncJobs(box);
    expect(jobs.map((j) => [j.state, j.error?.code, j.error?.params])).to.deep.equal([['failed', 'store.fetch.failed', { reason: 'unreachable' }]]);
    const catalog = (await admin.api.store.state()).catalogs.find((c) => c.id === 'project');
    expect(catalog).to.deep.include({ state: 'failed', verifiedAt: null });
    expect(catalog?.lastError).to.include({ code: 'store.fetch.failed' });
    expect(catalog?.lastError?.params).to.deep.equal({ reason: 'unreachable' });
  });
});
