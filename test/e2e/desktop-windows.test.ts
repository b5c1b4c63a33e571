import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import appCenterDe from '../../web/src/apps/app-center/i18n/de.json' with { type: 'json' };
import appCenterEn from '../../web/src/apps/app-center/i18n/en.json' with { type: 'json' };
import de from '../../web/src/lib/i18n/de.json' with { type: 'json' };
import desktopDe from '../../web/src/desktop/i18n/de.json' with { type: 'json' };
import desktopEn from '../../web/src/desktop/i18n/en.json' with { type: 'json' };
import en from '../../web/src/lib/i18n/en.json' with { type: 'json' };
import { screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { type TestDaemon } from '../helpers/daemon.ts';
import { desktopReady, drag, eventually, openDesktop, styleRect } from '../helpers/desktop.ts';

const appCenter = 'org.service.app-center';

describe('e2e: desktop windows', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    ({ context, page } = await openDesktop(browser, box.url));
  });

  after(async () => {
    await context?.close();
    await stopBrowserBox({ box, browser });
  });

  afterEach(async function () {
    // A failing step leaves a picture of what the page showed.
    if (this.currentTest?.state === 'failed' && !page.isClosed()) await page.screenshot({ path: screenshotPath('desktop-windows-failure') });
  });

  const win = (appId: string) => page.locator(`[role="dialog"][data-app="${appId}"]`);

  it('opens an app from the start menu with the keyboard alone and cycles window focus with Alt+`', async () => {
    // Alt+Shift+S opens the menu with its first entry focused; arrow keys walk it, Enter opens.
    await page.keyboard.press('Alt+Shift+KeyS');
    const menu = page.getByRole('menu', { name: desktopEn['start.title'] });
    await menu.waitFor();
    const entries = await menu.getByRole('menuitem').allTextContents();
    expect(entries.map((e) => e.trim())).to.deep.equal([
      'Files',
      'Control Panel',
      'Storage Manager',
      'Logs',
      'App Center',
      'Overview',
      desktopEn['desktopSettings.personal'],
    ]);
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).to.equal('Files');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).to.equal('App Center');
    await page.keyboard.press('Enter');
    await win(appCenter).waitFor();
    expect(await menu.count()).to.equal(0);
    // The app's own component fills the window.
    await win(appCenter).getByRole('tablist', { name: appCenterEn['appCenter.sections'] }).waitFor();
    expect(new URL(page.url()).pathname).to.equal(`/app/${appCenter}`);

    // A second window: the personal settings, opened the same way.
    await page.keyboard.press('Alt+Shift+KeyS');
    await menu.waitFor();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    const settings = win('org.service.settings');
    await settings.waitFor();
    await eventually(
      () => page.evaluate(() => document.activeElement?.closest('[role="dialog"]')?.getAttribute('data-app') ?? null),
      (v) => v === 'org.service.settings',
      'focus in the settings window',
    );
    expect(await settings.getAttribute('aria-labelledby')).to.match(/-title$/);

    // Alt+` brings the window under the focused one forward and moves keyboard focus into it.
    await page.keyboard.press('Alt+Backquote');
    await eventually(
      () => page.evaluate(() => document.activeElement?.closest('[role="dialog"]')?.getAttribute('data-app') ?? null),
      (v) => v === appCenter,
      'focus in the App Center window',
    );
    expect(new URL(page.url()).pathname).to.equal(`/app/${appCenter}`);
    expect(Number(await win(appCenter).evaluate((el: HTMLElement) => el.style.zIndex))).to.be.greaterThan(
      Number(await settings.evaluate((el: HTMLElement) => el.style.zIndex)),
    );
    await page.keyboard.press('Alt+Backquote');
    await eventually(
      () => page.evaluate(() => document.activeElement?.closest('[role="dialog"]')?.getAttribute('data-app') ?? null),
      (v) => v === 'org.service.settings',
      'focus back in settings',
    );

    // Alt+W closes the focused window; the other one takes the focus and the URL.
    await page.keyboard.press('Alt+KeyW');
    await settings.waitFor({ state: 'detached' });
    await eventually(
      async () => new URL(page.url()).pathname,
      (p) => p === `/app/${appCenter}`,
      'the URL of the remaining window',
    );
  });

  it('moves and resizes a window, snaps it, and brings it back to the same place after a reload', async () => {
    const frame = win(appCenter);
    const before = await styleRect(frame);
    // Drag the title bar by (-120, +20), then the top-left corner by (+100, +80).
    const title = await frame.locator('header h2').boundingBox();
    if (!title) throw new Error('no title bar');
    await drag(page, { x: title.x + 40, y: title.y + 10 }, { x: title.x - 80, y: title.y + 30 });
    const moved = await styleRect(frame);
    expect(moved).to.deep.include({ x: before.x - 120, y: before.y + 20, width: before.width, height: before.height });
    const corner = await frame.locator('[data-edge="nw"]').boundingBox();
    if (!corner) throw new Error('no resize corner');
    await drag(page, { x: corner.x + 6, y: corner.y + 6 }, { x: corner.x + 106, y: corner.y + 86 });
    const resized = await styleRect(frame);
    expect(resized).to.deep.equal({ x: moved.x + 100, y: moved.y + 80, width: moved.width - 100, height: moved.height - 80 });

    // The keyboard twin of the title bar: arrows move, Shift+arrows resize, 16 px a step.
    await frame.locator('.grip').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowLeft');
    const keyed = await styleRect(frame);
    expect(keyed).to.deep.equal({ x: resized.x + 16, y: resized.y, width: resized.width - 16, height: resized.height });

    // The window preference reaches the box (where new windows of the app open).
    const client = await box.signIn();
    await eventually(
      async () => (await client.api.desktop.get({ headers: { 'X-Device-Id': 'test-device-1' } })).windowPreferences.find((p) => p.appId === appCenter),
      (p) => p?.x === keyed.x && p.y === keyed.y && p.width === keyed.width && p.height === keyed.height,
      'the window preference',
    );

    await page.reload();
    await desktopReady(page);
    await frame.waitFor();
    expect(await styleRect(frame)).to.deep.equal(keyed);
    expect(new URL(page.url()).pathname).to.equal(`/app/${appCenter}`);

    // Dragging the title bar to the left side snaps to the left half; Alt+Shift+Right to the right half.
    const area = await page.locator('main.workspace').boundingBox();
    if (!area) throw new Error('no workspace');
    const bar = await frame.locator('header h2').boundingBox();
    if (!bar) throw new Error('no title bar');
    await drag(page, { x: bar.x + 20, y: bar.y + 10 }, { x: 2, y: 300 });
    expect(await styleRect(frame)).to.deep.equal({ x: 0, y: 0, width: area.width / 2, height: area.height });
    await frame.locator('.grip').focus();
    await page.keyboard.press('Alt+Shift+ArrowRight');
    expect(await styleRect(frame)).to.deep.equal({ x: area.width / 2, y: 0, width: area.width / 2, height: area.height });
    await page.keyboard.press('Alt+Shift+ArrowDown');
    expect(await styleRect(frame)).to.deep.equal(keyed);

    // Maximise, minimise and restore from the taskbar.
    await frame.getByRole('button', { name: desktopEn['wm.maximise'] }).click();
    expect(await styleRect(frame)).to.deep.equal({ x: 0, y: 0, width: area.width, height: area.height });
    await frame.getByRole('button', { name: desktopEn['wm.restore'] }).click();
    await frame.getByRole('button', { name: desktopEn['wm.minimise'] }).click();
    expect(await frame.isVisible()).to.equal(false);
    const taskbarButton = page.getByRole('navigation', { name: en['taskbar.label'] }).getByRole('button', { name: 'App Center' });
    await taskbarButton.click();
    expect(await frame.isVisible()).to.equal(true);
    expect(await styleRect(frame)).to.deep.equal(keyed);
  });

  it('keeps several windows of one app in the URL and restores all of them', async () => {
    await page.goto(`${box.url}/app/org.service.settings/keyboard?w=org.service.settings%2Fappearance&w=${appCenter}`);
    await desktopReady(page);
    await eventually(
      () => win('org.service.settings').count(),
      (n) => n === 2,
      'two settings windows',
    );
    expect(await win(appCenter).count()).to.equal(1);
    const focused = win('org.service.settings').last();
    await focused.getByRole('heading', { name: desktopEn['desktopSettings.keyboard'], level: 3 }).waitFor();
    await focused.getByText('Alt+`', { exact: true }).waitFor();
    await page.screenshot({ path: screenshotPath('desktop-en-windows') });
  });

  it('cascades a dozen new windows inside the workspace, past its bottom without jumping to the top left corner', async () => {
    const fresh = await openDesktop(browser, box.url, { viewport: { width: 1366, height: 820 } });
    try {
      const logs = 'org.service.logs';
      const windows = fresh.page.locator(`[role="dialog"][data-app="${logs}"]`);
      await fresh.page.goto(`${box.url}/app/${logs}?${Array.from({ length: 11 }, () => `w=${logs}`).join('&')}`);
      await desktopReady(fresh.page);
      await eventually(
        () => windows.count(),
        (n) => n === 12,
        'twelve windows',
      );
      const rects = await Promise.all((await windows.all()).map((w) => styleRect(w)));
      const desk = (await fresh.page.locator('main.workspace').boundingBox())!;
      for (const r of rects) {
        expect(r.x + r.width, JSON.stringify(r)).to.be.at.most(desk.width);
        expect(r.y + r.height, JSON.stringify(r)).to.be.at.most(desk.height);
        expect(r.x === 0 && r.y === 0, `${JSON.stringify(r)} at the corner`).to.equal(false);
      }
      expect(new Set(rects.map((r) => `${r.x},${r.y}`)).size).to.equal(12);
      // The cascade ran past the bottom at least once and started again below its first place.
      expect(rects.some((r, i) => i > 0 && r.y < rects[i - 1]!.y)).to.equal(true);
      await fresh.page.screenshot({ path: screenshotPath('desktop-cascade') });
    } finally {
      await fresh.context.close();
    }
  });

  it('changes accent colour and wallpaper live and keeps them for every device', async () => {
    await page.goto(`${box.url}/app/org.service.settings/appearance`);
    await desktopReady(page);
    const panel = win('org.service.settings');
    await panel.getByRole('radio', { name: 'Forest' }).click();
    await panel.getByRole('radio', { name: '#0f7b6c' }).click();
    await panel.getByRole('status').filter({ hasText: desktopEn['desktopSettings.saved'] }).waitFor();
    const accent = () => page.evaluate(() => document.documentElement.style.getPropertyValue('--accent'));
    await eventually(accent, (v) => v === '#0f7b6c', 'the accent colour applied');
    expect(await page.evaluate(() => document.documentElement.style.getPropertyValue('--wallpaper'))).to.contain('#3f6e4c');
    const client = await box.signIn();
    const state = await client.api.desktop.get({ headers: { 'X-Device-Id': 'another-device' } });
    expect(state.appearance).to.deep.equal({ accentColor: '#0f7b6c', wallpaper: 'forest' });
    await page.screenshot({ path: screenshotPath('desktop-en-appearance') });
  });

  it('works one full-screen window at a time at phone size, with an app switcher', async () => {
    const phone = await openDesktop(browser, box.url, { viewport: { width: 390, height: 780 } });
    try {
      const p = phone.page;
      await p.getByRole('button', { name: en['taskbar.start'] }).click();
      await p.getByRole('menuitem', { name: 'App Center' }).click();
      await p.getByRole('button', { name: en['taskbar.start'] }).click();
      await p.getByRole('menuitem', { name: desktopEn['desktopSettings.personal'] }).click();
      const settings = p.locator('[role="dialog"][data-app="org.service.settings"]');
      await settings.waitFor();
      const area = await p.locator('main.workspace').boundingBox();
      expect(await styleRect(settings)).to.deep.equal({ x: 0, y: 0, width: area?.width, height: area?.height });
      // Only the focused window shows; the switcher brings the other one.
      expect(await p.locator(`[role="dialog"][data-app="${appCenter}"]`).isVisible()).to.equal(false);
      await p.screenshot({ path: screenshotPath('desktop-phone-window') });
      await p.getByRole('button', { name: desktopEn['taskbar.windows'].replace('{count}', '2') }).click();
      await p.screenshot({ path: screenshotPath('desktop-phone-switcher') });
      // The App Center titles its window with the section shown.
      await p
        .locator('.switcher')
        .getByRole('button', { name: `App Center – ${appCenterEn['appCenter.section.installed']}`, exact: true })
        .click();
      await p.locator(`[role="dialog"][data-app="${appCenter}"]`).waitFor();
      expect(await settings.isVisible()).to.equal(false);

      // Turned to a desktop's width: the windows opened on the phone get places of their own in the
      // cascade at their apps' sizes, not the phone's full-screen rect at the top left corner.
      await p.setViewportSize({ width: 1366, height: 820 });
      await settings.waitFor();
      const placed = await eventually(
        () => Promise.all([styleRect(p.locator(`[role="dialog"][data-app="${appCenter}"]`)), styleRect(settings)]),
        (rects) => rects.every((r) => r.width > 390),
        'desktop places for the phone windows',
      );
      const desk = await p.locator('main.workspace').boundingBox();
      for (const r of placed) {
        expect(r.x === 0 && r.y === 0, `${JSON.stringify(r)} at the corner`).to.equal(false);
        expect(r.x + r.width).to.be.at.most(desk?.width ?? 0);
        expect(r.y + r.height).to.be.at.most(desk?.height ?? 0);
      }
      expect(`${placed[0]!.x},${placed[0]!.y}`).to.not.equal(`${placed[1]!.x},${placed[1]!.y}`);
    } finally {
      await phone.context.close();
    }
  });
  // Last: the language stays with the user's sessions for a while after the change.
  it('shows the desktop in German for a German user', async () => {
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    // The language comes with the session: a German sign-in on another browser.
    const german = await openDesktop(browser, box.url);
    try {
      const page = german.page;
      const win = (appId: string) => page.locator(`[role="dialog"][data-app="${appId}"]`);
      await page.goto(`${box.url}/app/org.service.settings/appearance?w=${appCenter}`);
      await desktopReady(page);
      await page.getByRole('navigation', { name: de['taskbar.label'] }).waitFor();
      await win('org.service.settings').getByRole('heading', { name: desktopDe['desktopSettings.wallpaper'] }).waitFor();
      await win(appCenter).getByRole('tablist', { name: appCenterDe['appCenter.sections'] }).waitFor();
      await page.getByRole('button', { name: de['taskbar.start'] }).click();
      await page.getByRole('menuitem', { name: 'Speicherverwaltung' }).waitFor();
      await page.screenshot({ path: screenshotPath('desktop-de-start-menu') });
      await page.keyboard.press('Escape');
    } finally {
      await german.context.close();
      await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });
});
