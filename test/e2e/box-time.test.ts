import { utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import timeEn from '../../web/src/apps/control-panel/time/i18n/en.json' with { type: 'json' };
import logsDe from '../../web/src/apps/logs/i18n/de.json' with { type: 'json' };
import { openControlPanelSection, screenshotPath, signInThroughPage, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { adminPassword, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { desktopReady, eventually } from '../helpers/desktop.ts';
import { seedLogs } from '../helpers/logs.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';

/**
 * The box's time as people read it: the taskbar clock in the box's zone (not the browser's) with
 * the zone's name on hover, the zone chosen from a list by keyboard alone, and dates in the
 * user's language in Files and Logs.
 */
describe("e2e: the box's time zone and date format", function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;
  let admin: TestClient;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    admin = await box.signIn();
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
    removeTempFolders();
  });

  /** How `at` reads in `zone` in German with `options`, the way a German reader expects it. */
  const german = (at: Date, zone: string, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('de-DE', { ...options, timeZone: zone }).format(at);

  it('picks the time zone from its list by keyboard alone: type to filter, arrows, Enter takes, Escape closes', async () => {
    const { context, page, panel } = await openControlPanelSection(browser, box, 'time', { viewport: { width: 1366, height: 820 } });
    const zone = panel.getByRole('combobox', { name: timeEn['controlPanel.time.zone'] });
    await zone.and(page.locator(':enabled')).waitFor();
    await zone.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('tokyo');
    const list = panel.getByRole('listbox', { name: timeEn['controlPanel.time.zone'] });
    await list.waitFor();
    expect(await list.getByRole('option').allTextContents()).to.deep.equal(['Asia/Tokyo']);
    // A wider query: the arrow keys walk it, the active option is the one Enter takes.
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('america new');
    const options = (await list.getByRole('option').allTextContents()).map((o) => o.trim());
    expect(options.length).to.be.greaterThan(1);
    expect(options.every((o) => o.startsWith('America/') && o.includes('New'))).to.equal(true);
    await page.keyboard.press('ArrowDown');
    const active = await zone.getAttribute('aria-activedescendant');
    expect(await page.locator(`#${active}`).textContent()).to.equal(options[1]);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    expect(await zone.inputValue()).to.equal(options[0]);
    expect(await zone.getAttribute('aria-expanded')).to.equal('false');
    // Escape closes the list and leaves the window open.
    await page.keyboard.press('ArrowDown');
    await list.waitFor();
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    expect(await page.locator('[role="dialog"][data-app="org.service.control-panel"]').count()).to.equal(1);
    // Back to Tokyo and saved, all by keyboard: Enter in the closed field submits.
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('tokyo');
    await page.keyboard.press('Enter');
    expect(await zone.inputValue()).to.equal('Asia/Tokyo');
    await page.keyboard.press('Enter');
    await panel.getByRole('status').filter({ hasText: timeEn['controlPanel.time.saved'] }).waitFor();
    expect((await admin.api.systemTime.time()).timeZone).to.equal('Asia/Tokyo');
    await page.screenshot({ path: screenshotPath('time-zone-keyboard') });
    await context.close();
  });

  describe('for a German user in New York whose box is in Tokyo', () => {
    let context: BrowserContext;
    let page: Page;

    before(async () => {
      await admin.api.systemTime.setTime({ body: { timeZone: 'Asia/Tokyo', servers: [] } });
      await admin.api.users.update({ params: { userId: admin.user?.id ?? 0 }, body: { language: 'de' } });
      context = await browser.newContext({ locale: 'de-DE', timezoneId: 'America/New_York', viewport: { width: 1366, height: 820 } });
      page = await context.newPage();
      await signInThroughPage(page, box.url, 'admin', adminPassword);
      await desktopReady(page);
    });

    after(async () => {
      await context.close();
      await admin.api.users.update({ params: { userId: admin.user?.id ?? 0 }, body: { language: 'en' } });
    });

    it("shows the box's time on the taskbar clock, with the zone's name on hover", async () => {
      // The browser itself says New York; Tokyo is 13 or 14 hours ahead.
      expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).to.equal('America/New_York');
      const clock = page.locator('nav.taskbar time.clock');
      const shown = await eventually(
        async () => ({ text: (await clock.innerText()).trim(), at: new Date() }),
        ({ text, at }) => [at, new Date(at.getTime() - 60_000)].some((t) => german(t, 'Asia/Tokyo', { hour: '2-digit', minute: '2-digit' }) === text),
        "the clock in Tokyo's time",
      );
      expect(shown.text).to.not.equal(german(shown.at, 'America/New_York', { hour: '2-digit', minute: '2-digit' }));
      const title = await clock.getAttribute('title');
      expect(title).to.match(/^Asia\/Tokyo \(.+\)$/);
      expect(title).to.include(german(shown.at, 'Asia/Tokyo', { timeZoneName: 'long' }).split(' ').slice(1).join(' '));
      expect(await clock.getAttribute('aria-label')).to.include('Asia/Tokyo');
      await clock.hover();
      await page.screenshot({ path: screenshotPath('clock-box-zone-de') });
    });

    it('shows file times in German, in the box zone', async () => {
      const { share, folder } = await makeShare(admin, 'Dokumente');
      const file = path.join(folder, 'bericht.txt');
      writeFileSync(file, 'Bericht');
      // 2026-03-04 23:30 UTC is the 5th in Tokyo and the 4th in New York.
      const modified = new Date(Date.UTC(2026, 2, 4, 23, 30));
      utimesSync(file, modified, modified);
      await page.goto(`${box.url}/app/org.service.files/${share.id}`);
      const cell = page.locator('[role="option"][data-name="bericht.txt"] .modified');
      await cell.waitFor();
      expect((await cell.innerText()).trim()).to.equal(german(modified, 'Asia/Tokyo', { dateStyle: 'medium', timeStyle: 'short' }));
      expect((await cell.innerText()).trim()).to.equal('05.03.2026, 08:30');
      await page.screenshot({ path: screenshotPath('files-dates-de') });
    });

    it('shows log times in German, in the box zone', async () => {
      // Within the default range (the last 24 hours), at a whole second.
      const at = new Date(Math.floor((Date.now() - 2 * 3_600_000) / 1000) * 1000);
      seedLogs(box, [{ level: 'warn', message: 'zeitprobe entry', time: at.toISOString() }]);
      await page.goto(`${box.url}/app/org.service.logs`);
      const list = page.getByRole('listbox', { name: logsDe['logs.list.label'] });
      await list.waitFor({ timeout: 15_000 });
      await page.getByLabel(logsDe['logs.filter.search']).fill('zeitprobe');
      await page.getByLabel(logsDe['logs.filter.search']).press('Enter');
      const time = list.getByRole('option').filter({ hasText: 'zeitprobe' }).locator('time');
      await time.waitFor();
      const text = (await time.innerText()).trim();
      expect(text).to.match(/^\d\d\.\d\d\.\d{4}, \d\d:\d\d:\d\d$/);
      expect(text).to.equal(german(at, 'Asia/Tokyo', { dateStyle: 'medium', timeStyle: 'medium' }));
      await page.screenshot({ path: screenshotPath('logs-dates-de') });
    });
  });
});
