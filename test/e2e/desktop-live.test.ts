import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import filesEn from '../../web/src/apps/files/i18n/en.json' with { type: 'json' };
import desktopEn from '../../web/src/desktop/i18n/en.json' with { type: 'json' };
import { screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { desktopReady, eventually, openDesktop, savedLayout, styleRect } from '../helpers/desktop.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';

const cell = (col: number, row: number) => ({ x: 12 + col * 96, y: 12 + row * 100 });

describe('e2e: the desktop follows other tabs and devices live', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;
  let admin: TestClient;
  // Two tabs of one browser (one device) and a second browser profile (another device).
  let one: { context: BrowserContext; page: Page };
  let tab2: Page;
  let other: { context: BrowserContext; page: Page };
  let logs: number;
  let files: number;
  let shareId: number;

  const slot = (p: Page, id: number) => p.locator(`li:has([data-item="${id}"])`);
  const iconNamed = (p: Page, label: string) => p.locator('[data-item]').and(p.getByRole('button', { name: label, exact: true }));
  const untilAt = (p: Page, id: number, col: number, row: number, what: string) =>
    eventually(
      () => styleRect(slot(p, id)),
      (r) => r.x === cell(col, row).x && r.y === cell(col, row).y,
      what,
    );
  /** Marks the page; the mark survives only as long as the page is not reloaded. */
  const mark = (p: Page) => p.evaluate(() => Object.assign(window, { liveMark: true }));
  const marked = (p: Page) => p.evaluate(() => (window as unknown as { liveMark?: boolean }).liveMark === true);

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    admin = await box.signIn();
    const made = await makeShare(admin, 'Pictures');
    shareId = made.share.id;
    mkdirSync(path.join(made.folder, 'Holidays'));
    writeFileSync(path.join(made.folder, 'Holidays', 'beach.txt'), 'sand');
    logs = (await admin.api.desktop.createItem({ body: { kind: 'app', label: 'Logs', appId: 'org.service.logs' } })).id;
    files = (await admin.api.desktop.createItem({ body: { kind: 'app', label: 'Files', appId: 'org.service.files' } })).id;
    one = await openDesktop(browser, box.url);
    tab2 = await one.context.newPage();
    await tab2.goto(box.url);
    await desktopReady(tab2);
    other = await openDesktop(browser, box.url);
    for (const p of [one.page, tab2, other.page]) await mark(p);
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
    removeTempFolders();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await one.page.screenshot({ path: screenshotPath('desktop-live-failure') });
  });

  it('shows a rename, a move, a new and a removed icon of one tab in the other tab at once', async () => {
    await one.page.locator(`[data-item="${logs}"]`).focus();
    await one.page.keyboard.press('F2');
    await one.page.getByRole('textbox', { name: desktopEn['icons.renameLabel'] }).fill('Journal');
    await one.page.keyboard.press('Enter');
    // Items are the same on every device: both the other tab and the other device show the new name.
    await iconNamed(tab2, 'Journal').waitFor();
    await iconNamed(other.page, 'Journal').waitFor();

    // A layout belongs to its device: the other tab follows the move, the other device does not.
    await one.page.locator(`[data-item="${files}"]`).focus();
    await one.page.keyboard.press('Shift+ArrowRight');
    await untilAt(tab2, files, 1, 1, 'the move in the other tab');
    await eventually(
      () => savedLayout(other.page),
      (s) => s.layoutVersion === 0,
      'the other device to keep its own layout',
    );
    expect(await styleRect(slot(other.page, files))).to.deep.include(cell(0, 1));

    const created = await admin.api.desktop.createItem({ body: { kind: 'app', label: 'Storage', appId: 'org.service.storage-manager' } });
    await iconNamed(tab2, 'Storage').waitFor();
    await iconNamed(other.page, 'Storage').waitFor();
    await tab2.locator(`[data-item="${created.id}"]`).focus();
    await tab2.keyboard.press('Delete');
    await tab2.getByRole('dialog').getByRole('button', { name: desktopEn['icons.removeShort'] }).click();
    await iconNamed(one.page, 'Storage').waitFor({ state: 'detached' });
    await iconNamed(other.page, 'Storage').waitFor({ state: 'detached' });

    await admin.api.desktop.setAppearance({ body: { accentColor: '#aa3366', wallpaper: 'forest' } });
    await other.page.waitForFunction(() => document.documentElement.style.getPropertyValue('--accent') === '#aa3366');
    for (const p of [one.page, tab2, other.page]) expect(await marked(p), 'no page reloaded').to.equal(true);
    expect(await tab2.getByRole('alert').count()).to.equal(0);
  });

  it('resolves a stale rename by reloading the item instead of showing an error', async () => {
    // The second tab starts renaming; meanwhile another client renames the same item. (Through the
    // API: switching the keyboard to the first tab would blur the second tab's field, which saves it.)
    await tab2.locator(`[data-item="${logs}"]`).focus();
    await tab2.keyboard.press('F2');
    await tab2.getByRole('textbox', { name: desktopEn['icons.renameLabel'] }).fill('Journal (tab 2)');
    await admin.api.desktop.updateItem({ params: { id: logs }, body: { label: 'Journal (elsewhere)' } });
    await iconNamed(one.page, 'Journal (elsewhere)').waitFor();
    const conflict = tab2.waitForResponse((r) => r.url().endsWith(`/api/desktop/items/${logs}`) && r.status() === 412);
    await tab2.keyboard.press('Enter');
    await conflict;
    // The newest edit wins on every tab and device; nobody saw an error.
    for (const p of [one.page, tab2, other.page]) await iconNamed(p, 'Journal (tab 2)').waitFor();
    expect((await admin.api.desktop.listItems()).find((i) => i.id === logs)).to.include({ label: 'Journal (tab 2)', version: 4 });
    expect(await tab2.getByRole('alert').count()).to.equal(0);
    expect(await one.page.getByRole('alert').count()).to.equal(0);
  });

  it('keeps a drag in progress when another tab of the device saves the layout', async () => {
    const from = await tab2.locator(`[data-item="${logs}"]`).boundingBox();
    if (!from) throw new Error('no icon');
    await tab2.mouse.move(from.x + 40, from.y + 30);
    await tab2.mouse.down();
    await tab2.mouse.move(from.x + 40 + 150, from.y + 30 + 100, { steps: 5 });
    // Mid-drag, the first tab moves the other icon: the second tab takes that layout.
    await one.page.locator(`[data-item="${files}"]`).focus();
    await one.page.keyboard.press('Shift+ArrowDown');
    await untilAt(tab2, files, 1, 2, 'the first tab’s move while dragging');
    await tab2.mouse.move(from.x + 40 + 3 * 96, from.y + 30 + 3 * 100, { steps: 5 });
    await tab2.mouse.up();
    await untilAt(tab2, logs, 3, 3, 'the dropped icon');
    const saved = await eventually(
      () => savedLayout(one.page),
      (s) => s.layout?.icons?.[logs]?.col === 3,
      'the second tab’s drop saved',
    );
    expect(saved.layout?.icons?.[files]).to.deep.equal({ col: 1, row: 2 });
    expect(saved.layout?.icons?.[logs]).to.deep.equal({ col: 3, row: 3 });
    await untilAt(one.page, logs, 3, 3, 'the drop shown in the first tab');
    expect(await marked(tab2)).to.equal(true);
  });

  it('adds a folder shortcut from the Files app that opens the folder', async () => {
    const page = one.page;
    await page.goto(`${box.url}/app/org.service.files/${shareId}`);
    await desktopReady(page);
    await page.locator('[role="option"][data-name="Holidays"]').click();
    await page.getByRole('toolbar', { name: filesEn['files.toolbar'] }).getByRole('button', { name: filesEn['files.action.addToDesktop'] }).click();
    await page.getByRole('status').getByText(filesEn['files.desktop.added'].replace('{name}', 'Holidays')).waitFor();
    const shortcut = iconNamed(page, 'Holidays');
    await shortcut.waitFor();
    await iconNamed(tab2, 'Holidays').waitFor();
    expect((await admin.api.desktop.listItems()).find((i) => i.label === 'Holidays')).to.include({ kind: 'folder', shareId, path: 'Holidays' });
    await page.keyboard.press('Alt+KeyW');
    await page.locator('[role="dialog"][data-app="org.service.files"]').waitFor({ state: 'detached' });

    await shortcut.focus();
    await page.keyboard.press('Enter');
    await page.locator('[role="option"][data-name="beach.txt"]').waitFor();
    expect(new URL(page.url()).pathname).to.equal(`/app/org.service.files/${shareId}/Holidays`);
    await page.screenshot({ path: screenshotPath('desktop-live-folder-shortcut') });
    await page.keyboard.press('Alt+KeyW');
  });

  it('copies the layout of another device after asking, and shows it at once', async () => {
    const page = other.page;
    const mine = await savedLayout(one.page);
    await page.goto(`${box.url}/app/org.service.settings/layout`);
    await desktopReady(page);
    const list = page.getByRole('list', { name: desktopEn['layoutPanel.devices'] });
    const use = list.getByRole('button', { name: desktopEn['layoutPanel.useOf'].replace('{device}', 'Chrome on Linux') });
    await use.waitFor();
    await page.screenshot({ path: screenshotPath('desktop-live-layout-panel') });
    await use.click();
    const question = page.getByRole('dialog', { name: desktopEn['layoutPanel.confirm'].replace('{device}', 'Chrome on Linux') });
    await question.getByRole('button', { name: desktopEn['layoutPanel.replace'] }).click();
    await page.getByRole('status').getByText(desktopEn['layoutPanel.copied'].replace('{device}', 'Chrome on Linux')).waitFor();
    await untilAt(page, logs, 3, 3, 'the copied layout on the other device');
    await untilAt(page, files, 1, 2, 'the copied layout on the other device');
    expect((await savedLayout(page)).layout).to.deep.equal(mine.layout);
    expect(await marked(tab2)).to.equal(true);
  });
});
