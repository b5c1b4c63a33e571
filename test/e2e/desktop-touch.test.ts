import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { screenshotPath, signInThroughPage, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { adminPassword, type TestDaemon } from '../helpers/daemon.ts';
import { desktopReady } from '../helpers/desktop.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';

/**
 * A touch screen as large as a laptop's (a tablet in landscape, a touch laptop): a finger has no
 * double click at any width, so one tap opens a desktop icon and a folder in Files at 1366x820 too.
 */
describe('e2e: one tap opens on a touch screen at desktop width', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let shareId: number;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    const admin = await box.signIn();
    const { share, folder } = await makeShare(admin, 'Family');
    shareId = share.id;
    mkdirSync(path.join(folder, 'Holidays'));
    writeFileSync(path.join(folder, 'Holidays', 'beach.txt'), 'sand');
    await admin.api.desktop.createItem({ body: { kind: 'folder', label: 'Family photos', shareId, path: 'Holidays' } });
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 820 }, hasTouch: true });
    page = await context.newPage();
    await signInThroughPage(page, box.url, 'admin', adminPassword);
    await desktopReady(page);
  });

  after(async () => {
    await context?.close();
    await stopBrowserBox({ box, browser });
    removeTempFolders();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await page.screenshot({ path: screenshotPath('desktop-touch-failure') });
  });

  const files = () => page.locator('[role="dialog"][data-app="org.service.files"]');

  it('is a desktop, not a phone: windows float at this width', async () => {
    expect(await page.evaluate(() => window.innerWidth)).to.equal(1366);
    expect(await page.locator('.desktop.compact').count()).to.equal(0);
  });

  it('opens a folder icon on the desktop with one tap', async () => {
    const icon = page.locator('[data-item]').filter({ hasText: 'Family photos' });
    await icon.tap();
    await files().waitFor({ timeout: 5000 });
    await files().locator('[role="option"][data-name="beach.txt"]').waitFor();
    expect(new URL(page.url()).pathname).to.equal(`/app/org.service.files/${shareId}/Holidays`);
  });

  it('opens a folder in Files with one tap', async () => {
    await page.goto(`${box.url}/app/org.service.files/${shareId}`);
    const folder = files().locator('[role="option"][data-name="Holidays"]');
    await folder.tap();
    await files().locator('[role="option"][data-name="beach.txt"]').waitFor({ timeout: 5000 });
    expect(new URL(page.url()).pathname).to.equal(`/app/org.service.files/${shareId}/Holidays`);
    await page.screenshot({ path: screenshotPath('desktop-touch-files') });
  });

  it('keeps a mouse click a selection at the same width (a second click opens)', async () => {
    await page.goto(`${box.url}/app/org.service.files/${shareId}`);
    const folder = files().locator('[role="option"][data-name="Holidays"]');
    await folder.click();
    expect(await folder.getAttribute('aria-selected')).to.equal('true');
    expect(new URL(page.url()).pathname).to.equal(`/app/org.service.files/${shareId}`);
  });
});
