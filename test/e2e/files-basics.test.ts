import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { ShareInfo } from '../../shared/src/api/shares/shares.ts';
import de from '../../web/src/apps/files/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/files/i18n/en.json' with { type: 'json' };
import { screenshotPath, signInThroughPage, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { adminPassword, type TestDaemon } from '../helpers/daemon.ts';
import { photo } from '../helpers/images.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';
import { until } from '../helpers/until.ts';

const appPath = '/app/org.service.files';

describe('e2e: Files basics (preview, context menu, filter, free space)', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;
  let page: Page;
  let share: ShareInfo;
  let folder: string;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    const admin = await box.signIn();
    ({ share, folder } = await makeShare(admin, 'Documents'));
    writeFileSync(path.join(folder, 'notes.txt'), 'hello from the notes');
    writeFileSync(path.join(path.join(folder, 'Holiday.png')), await photo(64, 48).png().toBuffer());
    writeFileSync(path.join(folder, 'archive.bin'), Buffer.alloc(64, 1));
    for (const name of ['report-a.doc', 'Report-B.doc', 'summary.doc']) writeFileSync(path.join(folder, name), name);
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 820 }, acceptDownloads: true });
    page = await context.newPage();
    await signInThroughPage(page, box.url, 'admin', adminPassword);
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
    removeTempFolders();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await page.screenshot({ path: screenshotPath(`files-basics-failed-${this.currentTest.title.slice(0, 30).replace(/\W+/g, '-')}`) });
  });

  const option = (p: Page, name: string) => p.locator(`[role="option"][data-name="${name}"]`);
  const names = (p: Page) => p.locator('[role="option"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')));

  async function openShare(p: Page): Promise<void> {
    await p.goto(`${box.url}${appPath}/${share.id}`);
    await option(p, 'notes.txt').waitFor();
  }

  it('previews pictures and text in place (inline content), downloads other kinds, Escape closes', async () => {
    await openShare(page);
    await option(page, 'Holiday.png').dblclick();
    const picture = page.getByRole('dialog', { name: en['files.preview.title'].replace('{name}', 'Holiday.png') });
    await picture.waitFor();
    const img = picture.locator('img');
    await page.waitForFunction(() => (document.querySelector('dialog img') as HTMLImageElement | null)?.naturalWidth === 64);
    const src = new URL((await img.getAttribute('src'))!, box.url);
    expect(src.pathname).to.equal(`/api/files/${share.id}/content`);
    expect(src.searchParams.get('inline')).to.equal('true');
    await page.screenshot({ path: screenshotPath('files-preview-en') });
    await page.keyboard.press('Escape');
    await picture.waitFor({ state: 'detached' });
    // Enter on a text file shows its text.
    await option(page, 'notes.txt').click();
    await page.keyboard.press('Enter');
    const text = page.getByRole('dialog', { name: en['files.preview.title'].replace('{name}', 'notes.txt') });
    await text.getByText('hello from the notes').waitFor();
    await page.keyboard.press('Escape');
    await text.waitFor({ state: 'detached' });
    // Other kinds still download.
    const downloaded = page.waitForEvent('download');
    await option(page, 'archive.bin').dblclick();
    expect((await downloaded).suggestedFilename()).to.equal('archive.bin');
    expect(await page.locator('dialog[open]').count()).to.equal(0);
  });

  it('opens a context menu by right click and by Shift+F10 with the toolbar actions, keyboard-navigable', async () => {
    await openShare(page);
    await option(page, 'summary.doc').click({ button: 'right' });
    const menu = page.getByRole('menu', { name: en['files.menu.label'] });
    await menu.waitFor();
    const labels = await menu.getByRole('menuitem').allTextContents();
    for (const key of ['files.action.open', 'files.action.download', 'files.action.rename', 'files.action.copy', 'files.action.delete'] as const)
      expect(labels).to.include(en[key]);
    expect(await page.locator('[role="option"][aria-selected="true"]').getAttribute('data-name')).to.equal('summary.doc');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    // From the keyboard: Shift+F10, arrows to "Rename", Enter starts renaming.
    await page.keyboard.press('Shift+F10');
    await menu.waitFor();
    const items = menu.getByRole('menuitem');
    const renameAt = (await items.allTextContents()).indexOf(en['files.action.rename']);
    for (let i = 0; i < renameAt; i++) await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal(en['files.action.rename']);
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    const field = option(page, 'summary.doc').locator('input');
    await field.waitFor();
    await field.fill('summary-2.doc');
    await page.keyboard.press('Enter');
    await until('the rename', () => existsSync(path.join(folder, 'summary-2.doc')));
    await option(page, 'summary-2.doc').waitFor();
  });

  it('filters the folder by name and deletes exactly the selected filtered entry', async () => {
    await openShare(page);
    await page.getByLabel(en['files.filter.label']).fill('REPORT');
    await page.waitForFunction(() => document.querySelectorAll('[role="option"]').length === 2);
    expect(await names(page)).to.deep.equal(['report-a.doc', 'Report-B.doc']);
    // The second shown entry is the fourth of the folder: the selection must follow the shown list.
    await option(page, 'Report-B.doc').click();
    await page.keyboard.press('Delete');
    const confirm = page.getByRole('dialog', { name: en['files.delete.title'] });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: en['files.delete.confirm'], exact: true }).click();
    await until('Report-B.doc to go', () => !existsSync(path.join(folder, 'Report-B.doc')));
    expect(existsSync(path.join(folder, 'report-a.doc'))).to.equal(true);
    expect(existsSync(path.join(folder, 'notes.txt'))).to.equal(true);
    expect(existsSync(path.join(folder, 'Holiday.png'))).to.equal(true);
    await page.getByLabel(en['files.filter.label']).fill('');
    await option(page, 'notes.txt').waitFor();
  });

  it('shows the free space of the share, and works on a phone in German (long press menu, filter)', async () => {
    await openShare(page);
    const free = page.getByTestId('share-free');
    expect(await free.textContent()).to.match(/^\d[\d.,]* [KMGT]?i?B free$/);
    // The language comes with the session.
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    const phone = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const p = await phone.newPage();
    await signInThroughPage(p, box.url, 'admin', adminPassword);
    await openShare(p);
    expect(await p.getByTestId('share-free').textContent()).to.match(/ frei$/);
    await p.getByLabel(de['files.filter.label']).fill('notes');
    await p.waitForFunction(() => document.querySelectorAll('[role="option"]').length === 1);
    // A long press opens the menu.
    const row = option(p, 'notes.txt');
    const box_ = (await row.boundingBox())!;
    await row.dispatchEvent('pointerdown', { pointerType: 'touch', clientX: box_.x + 20, clientY: box_.y + 10, isPrimary: true });
    const menu = p.getByRole('menu', { name: de['files.menu.label'] });
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).to.include(de['files.action.open']);
    const menuBox = (await menu.boundingBox())!;
    expect(menuBox.x + menuBox.width).to.be.at.most(390);
    await p.screenshot({ path: screenshotPath('files-menu-phone-de') });
    await menu.getByRole('menuitem', { name: de['files.action.open'] }).click();
    await p.locator('dialog[open]').getByText('hello from the notes').waitFor();
    await phone.close();
    await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
  });
});
