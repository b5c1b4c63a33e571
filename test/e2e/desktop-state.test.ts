import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import desktopEn from '../../web/src/desktop/i18n/en.json' with { type: 'json' };
import en from '../../web/src/lib/i18n/en.json' with { type: 'json' };
import { screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { desktopReady, drag, eventually, openDesktop, savedLayout, styleRect } from '../helpers/desktop.ts';
import { registerTestKinds, waitForJob } from '../helpers/jobs.ts';
import { insertUser } from '../helpers/users.ts';

const cell = (col: number, row: number) => ({ x: 12 + col * 96, y: 12 + row * 100 });

describe('e2e: desktop icons, notifications and jobs', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;
  let admin: TestClient;
  let context: BrowserContext;
  let page: Page;
  let itemIds: number[];

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    registerTestKinds(box.daemon.jobs);
    admin = await box.signIn();
    // These tests arrange their own icons: the apps a first desktop gets go first (and stay gone).
    for (const item of (await admin.api.desktop.get()).items)
      await admin.api.desktop.deleteItem({ params: { id: item.id }, headers: { 'If-Match': `"${item.version}"` } });
    itemIds = [];
    for (const [label, appId] of [
      ['Logs', 'org.service.logs'],
      ['Files', 'org.service.files'],
    ] as const) {
      itemIds.push((await admin.api.desktop.createItem({ body: { kind: 'app', label, appId } })).id);
    }
    ({ context, page } = await openDesktop(browser, box.url));
  });

  after(async () => {
    await context?.close();
    await stopBrowserBox({ box, browser });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && !page.isClosed()) await page.screenshot({ path: screenshotPath('desktop-state-failure') });
  });

  const icon = (p: Page, id: number) => p.locator(`li:has([data-item="${id}"])`);

  it('arranges icons by dragging, keeps the layout over a reload, and another device keeps its own', async () => {
    const [logs, files] = itemIds as [number, number];
    // New items fill the first column.
    expect(await styleRect(icon(page, logs))).to.deep.include(cell(0, 0));
    expect(await styleRect(icon(page, files))).to.deep.include(cell(0, 1));
    const box1 = await page.locator(`[data-item="${logs}"]`).boundingBox();
    if (!box1) throw new Error('no icon');
    // Drop the Logs icon on cell (4, 2).
    await drag(page, { x: box1.x + 40, y: box1.y + 30 }, { x: box1.x + 40 + 4 * 96, y: box1.y + 30 + 2 * 100 });
    expect(await styleRect(icon(page, logs))).to.deep.include(cell(4, 2));
    await eventually(
      () => savedLayout(page),
      (s) => s.layout?.icons?.[logs]?.col === 4 && s.layout.icons[logs]?.row === 2,
      'the saved layout',
    );

    await page.reload();
    await desktopReady(page);
    expect(await styleRect(icon(page, logs))).to.deep.include(cell(4, 2));
    expect(await styleRect(icon(page, files))).to.deep.include(cell(0, 1));

    // Another browser is another device: its own layout, the same items.
    const other = await openDesktop(browser, box.url);
    try {
      expect(await styleRect(icon(other.page, logs))).to.deep.include(cell(0, 0));
      await other.page.locator(`[data-item="${files}"]`).focus();
      await other.page.keyboard.press('Shift+ArrowRight');
      await eventually(
        () => savedLayout(other.page),
        (s) => s.layout?.icons?.[files]?.col === 1,
        "the other device's layout",
      );
    } finally {
      await other.context.close();
    }
    await page.reload();
    await desktopReady(page);
    expect(await styleRect(icon(page, files))).to.deep.include(cell(0, 1));
    expect(await styleRect(icon(page, logs))).to.deep.include(cell(4, 2));
  });

  it('adds a shortcut from the start menu, opens it with Enter and removes it after asking', async () => {
    await page.getByRole('button', { name: en['taskbar.start'] }).click();
    const storage = page.getByRole('menuitem', { name: 'Storage Manager' });
    await storage.focus();
    await page.keyboard.press('Shift+F10');
    await page
      .getByRole('menu', { name: desktopEn['start.actionsFor'].replace('{app}', 'Storage Manager') })
      .getByRole('menuitem', { name: desktopEn['start.addToDesktop'] })
      .click();
    const shortcut = page.getByRole('button', { name: 'Storage Manager', exact: true }).and(page.locator('[data-item]'));
    await shortcut.waitFor();
    const items = await admin.api.desktop.listItems();
    expect(items.map((i) => i.appId)).to.include('org.service.storage-manager');
    await shortcut.focus();
    await page.keyboard.press('Enter');
    await page.locator('[role="dialog"][data-app="org.service.storage-manager"]').waitFor();
    await page.keyboard.press('Alt+KeyW');

    await shortcut.focus();
    await page.keyboard.press('Delete');
    const question = page.getByRole('dialog', { name: desktopEn['icons.confirmRemove'].replace('{label}', 'Storage Manager') });
    await question.getByRole('button', { name: desktopEn['icons.removeShort'] }).click();
    await shortcut.waitFor({ state: 'detached' });
    expect((await admin.api.desktop.listItems()).map((i) => i.appId)).to.not.include('org.service.storage-manager');
  });

  it('resolves an edit conflict between two tabs without losing the newer change', async () => {
    const [logs, files] = itemIds as [number, number];
    // Two tabs of one browser: the same device, both loaded at the same layout version.
    const second = await context.newPage();
    await second.goto(box.url);
    await desktopReady(second);
    const start = (await savedLayout(page)).layoutVersion;

    // Tab 1 moves Files; tab 2, still at the old version, then moves Logs and gets a 412 it resolves itself.
    await page.locator(`[data-item="${files}"]`).focus();
    await page.keyboard.press('Shift+ArrowDown');
    await eventually(
      () => savedLayout(page),
      (s) => s.layoutVersion === start + 1,
      'the first tab saved',
    );
    await second.locator(`[data-item="${logs}"]`).focus();
    await second.keyboard.press('Shift+ArrowLeft');
    const merged = await eventually(
      () => savedLayout(page),
      (s) => s.layoutVersion === start + 2,
      'the second tab saved after reloading',
    );
    expect(merged.layout?.icons?.[files]).to.deep.equal({ col: 0, row: 2 });
    expect(merged.layout?.icons?.[logs]).to.deep.equal({ col: 3, row: 2 });
    // The second tab shows both changes; no error was shown.
    expect(await styleRect(icon(second, files))).to.deep.include(cell(0, 2));
    expect(await second.getByRole('alert').count()).to.equal(0);

    // The same for an item: tab 1 renames, tab 2 (stale version) renames later and wins.
    await page.locator(`[data-item="${logs}"]`).focus();
    await page.keyboard.press('F2');
    await page.getByRole('textbox', { name: desktopEn['icons.renameLabel'] }).fill('Logs (tab 1)');
    await page.keyboard.press('Enter');
    const first = await eventually(
      async () => (await admin.api.desktop.listItems()).find((i) => i.id === logs),
      (i) => i?.label === 'Logs (tab 1)',
      'the first rename',
    );
    await second.locator(`[data-item="${logs}"]`).focus();
    await second.keyboard.press('F2');
    await second.getByRole('textbox', { name: desktopEn['icons.renameLabel'] }).fill('Logs (newest)');
    await second.keyboard.press('Enter');
    const renamed = await eventually(
      async () => (await admin.api.desktop.listItems()).find((i) => i.id === logs),
      (i) => i?.label === 'Logs (newest)',
      'the newer rename',
    );
    expect(renamed?.version).to.equal((first?.version ?? 0) + 1);
    await second.getByRole('button', { name: 'Logs (newest)' }).waitFor();
    expect(await second.getByRole('alert').count()).to.equal(0);
    await second.close();
  });

  it('shows a notification of a core app live, marks it read and deletes all after asking', async () => {
    const bell = page.getByRole('button', { name: desktopEn['notify.button'].replace('{count}', '0') });
    await bell.waitFor();
    await admin.api.notifications.sendApp({
      body: { appId: 'org.service.logs', title: 'Backup finished', body: '12 files saved', level: 'success', link: '/app/org.service.logs/errors' },
    });
    const unreadBell = page.getByRole('button', { name: desktopEn['notify.button'].replace('{count}', '1') });
    await unreadBell.waitFor();
    await unreadBell.click();
    const centre = page.getByRole('region', { name: desktopEn['notify.title'] });
    await centre.getByText('Backup finished').waitFor();
    await centre.getByText('12 files saved').waitFor();
    await page.screenshot({ path: screenshotPath('desktop-en-notifications') });
    await centre.getByRole('button', { name: desktopEn['notify.markReadOf'].replace('{title}', 'Backup finished') }).click();
    await page.getByRole('button', { name: desktopEn['notify.button'].replace('{count}', '0') }).waitFor();
    expect((await admin.api.notifications.list()).items[0]).to.include({ title: 'Backup finished', read: true });

    // Its link opens the owning app at the place it names.
    await centre.getByRole('button', { name: desktopEn['notify.open'] }).click();
    await page.locator('[role="dialog"][data-app="org.service.logs"]').waitFor();
    expect(new URL(page.url()).pathname).to.equal('/app/org.service.logs/errors');
    await page.keyboard.press('Alt+KeyW');

    await page.getByRole('button', { name: desktopEn['notify.button'].replace('{count}', '0') }).click();
    await centre.getByRole('button', { name: desktopEn['notify.deleteAll'] }).click();
    await page.getByRole('dialog', { name: desktopEn['notify.confirmDeleteAll'] }).getByRole('button', { name: desktopEn['notify.deleteAll'] }).click();
    await centre.getByText(desktopEn['notify.empty']).waitFor();
    expect((await admin.api.notifications.list()).items).to.deep.equal([]);
    await page.keyboard.press('Escape');
  });

  it('shows a running job with its progress in the tray and cancels it there', async () => {
    const job = await box.daemon.jobs.enqueue('test.gate', {}, admin.user!.id);
    await waitForJob(admin, job.id, (j) => j.state === 'running', 'the job to run');
    // The jobs topic announces the new job: the taskbar counts it before the tray is opened.
    await page.getByRole('button', { name: desktopEn['jobs.button'].replace('{count}', '1') }).click();
    const tray = page.getByRole('region', { name: desktopEn['jobs.title'] });
    const row = tray.locator(`[data-job="${job.id}"]`);
    await row.getByText(desktopEn['jobs.state.running']).waitFor();
    // Progress follows on the job's own topic, throttled.
    await row.getByText('1 of 3 steps').waitFor();
    const bar = row.getByRole('progressbar', { name: desktopEn['jobs.progressOf'].replace('{kind}', 'test.gate') });
    expect(await bar.evaluate((el: HTMLProgressElement) => el.value)).to.equal(33);
    await page.screenshot({ path: screenshotPath('desktop-en-jobs') });
    await row.getByRole('button', { name: desktopEn['jobs.cancelOf'].replace('{kind}', 'test.gate') }).click();
    // The topic reports the end: no reload needed.
    await row.getByText(desktopEn['jobs.state.cancelled']).waitFor();
    expect((await admin.api.jobs.get({ params: { id: job.id } })).state).to.equal('cancelled');
    await page.keyboard.press('Escape');
  });

  it('updates the start menu at once when the user is granted more', async () => {
    const userId = await insertUser(box, 'erin', 'erin password 1');
    const erin = await openDesktop(browser, box.url, { username: 'erin', password: 'erin password 1' });
    try {
      const p = erin.page;
      await p.getByRole('button', { name: en['taskbar.start'] }).click();
      const menu = p.getByRole('menu', { name: desktopEn['start.title'] });
      await menu.getByRole('menuitem', { name: 'Files' }).waitFor();
      expect(await menu.getByRole('menuitem', { name: 'Logs' }).count()).to.equal(0);
      await admin.api.users.update({ params: { userId }, body: { admin: true } });
      await menu.getByRole('menuitem', { name: 'Logs' }).waitFor();
    } finally {
      await erin.context.close();
    }
  });
});
