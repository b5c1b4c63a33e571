import { expect } from 'chai';
import type { Browser, Locator, Page } from 'playwright-core';
import { screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import type { TestDaemon } from '../helpers/daemon.ts';
import { openDesktop, styleRect, type Rect } from '../helpers/desktop.ts';

const wide = { width: 1366, height: 820 };
/** The six core apps in the start menu's order (personal settings, the seventh entry, stays shut). */
const apps = [
  'org.service.files',
  'org.service.control-panel',
  'org.service.storage-manager',
  'org.service.logs',
  'org.service.app-center',
  'org.service.overview',
];

/** Where each window may be: the workspace above the taskbar (the windows' positioned parent). */
function workspace(win: Locator): Promise<{ width: number; height: number }> {
  return win.evaluate((el: HTMLElement) => {
    const area = el.offsetParent as HTMLElement;
    return { width: area.clientWidth, height: area.clientHeight };
  });
}

/** How many lines a text is laid out on. */
function lines(locator: Locator): Promise<number> {
  return locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
}

/**
 * Issue 31, desktop: six apps at 1366 px leave every taskbar button reachable (the window list
 * scrolls under the mouse wheel) and the clock on one line; a new window opens one step right of
 * and below the window it would cover, and every window stays inside the workspace.
 */
describe('e2e: a full taskbar and cascading windows at 1366x820', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;
  let page: Page | undefined;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
  });
  after(async () => {
    await stopBrowserBox({ box, browser });
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed()) await page.screenshot({ path: screenshotPath('desktop-taskbar-failure') });
  });

  /** Opens the start menu's entry `index` with the mouse and waits for its window. */
  async function openFromStart(p: Page, index: number): Promise<Locator> {
    await p.locator('nav.taskbar button').first().click();
    await p.getByRole('menu').getByRole('menuitem').nth(index).click();
    const win = p.locator(`[role="dialog"][data-app="${apps[index]}"]`);
    await win.waitFor();
    return win;
  }

  /** Turns the mouse wheel over the window list until `button` is wholly inside it, then clicks it. */
  async function reachAndClick(p: Page, list: Locator, button: Locator): Promise<void> {
    const area = (await list.boundingBox())!;
    await p.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
    for (let step = 0; step < 40; step++) {
      const at = (await button.boundingBox())!;
      if (at.x >= area.x - 0.5 && at.x + at.width <= area.x + area.width + 0.5) break;
      await p.mouse.wheel(at.x < area.x ? -120 : 120, 0);
      await p.waitForTimeout(60);
    }
    const at = (await button.boundingBox())!;
    expect(at.x, 'the button starts inside the window list').to.be.at.least(area.x - 0.5);
    expect(at.x + at.width, 'the button ends inside the window list').to.be.at.most(area.x + area.width + 0.5);
    await button.click();
  }

  for (const language of ['en', 'de'] as const) {
    it(`in ${language}: cascades the second window of one size, keeps every window inside, every taskbar button reachable and the clock on one line`, async () => {
      const admin = await box.signIn();
      await admin.api.users.update({ params: { userId: admin.user?.id ?? 0 }, body: { language } });
      const opened = await openDesktop(browser, box.url, { viewport: wide, locale: language === 'de' ? 'de-DE' : 'en-US' });
      page = opened.page;
      try {
        // Control Panel, then Storage Manager first: they share a default size, so centred the second would hide the first.
        const order = [1, 2, 0, 3, 4, 5];
        const rects: Rect[] = [];
        for (const index of order) rects.push(await styleRect(await openFromStart(page, index)));

        await page.screenshot({ path: screenshotPath(`desktop-taskbar-${language}`) });

        // The clock: one line, wholly on the screen.
        const clock = page.locator('nav.taskbar time.clock');
        expect(await lines(clock)).to.equal(1);
        const time = (await clock.boundingBox())!;
        expect(time.x + time.width).to.be.at.most(wide.width);

        // Every window's button can be brought into sight with the wheel and clicked: its window comes forward.
        const list = page.locator('nav.taskbar .windows');
        const buttons = list.locator('.window-button');
        expect(await buttons.count()).to.equal(apps.length);
        for (const index of [0, apps.length - 1, 1, apps.length - 2]) {
          await reachAndClick(page, list, buttons.nth(index));
          expect(await buttons.nth(index).getAttribute('aria-pressed'), `button ${index}`).to.equal('true');
        }

        // The windows: the second of one size one step off the first, none on another's corner, all inside the workspace.
        const [controlPanel, storage] = rects as [Rect, Rect];
        expect({ x: storage.x, y: storage.y }).to.deep.equal({ x: controlPanel.x + 28, y: controlPanel.y + 28 });
        const corners = new Set(rects.map((r) => `${r.x},${r.y}`));
        expect(corners.size, 'no two windows share a corner').to.equal(rects.length);
        const area = await workspace(page.locator('[role="dialog"][data-app]').first());
        for (const [at, r] of rects.entries()) {
          const app = apps[order[at]!];
          expect(r.x, app).to.be.at.least(0);
          expect(r.y, app).to.be.at.least(0);
          expect(r.x + r.width, app).to.be.at.most(area.width);
          expect(r.y + r.height, app).to.be.at.most(area.height);
        }
      } finally {
        await opened.context.close();
      }
    });
  }
});
