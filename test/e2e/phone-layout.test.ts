import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import controlPanelEn from '../../web/src/apps/control-panel/i18n/en.json' with { type: 'json' };
import controlPanelDe from '../../web/src/apps/control-panel/i18n/de.json' with { type: 'json' };
import filesEn from '../../web/src/apps/files/i18n/en.json' with { type: 'json' };
import logsDe from '../../web/src/apps/logs/i18n/de.json' with { type: 'json' };
import logsEn from '../../web/src/apps/logs/i18n/en.json' with { type: 'json' };
import storageDe from '../../web/src/apps/storage-manager/i18n/de.json' with { type: 'json' };
import storageEn from '../../web/src/apps/storage-manager/i18n/en.json' with { type: 'json' };
import { type TestDaemon } from '../helpers/daemon.ts';
import { screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { openDesktop } from '../helpers/desktop.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';

const phone = { width: 390, height: 844 };

/**
 * Visible controls whose right edge passes the viewport, unless a scrolling ancestor clips them
 * (a tab strip). A string, not a function: the test runner's transform would add helpers the page lacks.
 */
const overflowScript = `(() => {
  const width = window.innerWidth;
  const out = [];
  if (document.scrollingElement.scrollWidth > width) out.push('the page scrolls sideways (' + document.scrollingElement.scrollWidth + 'px)');
  for (const el of document.querySelectorAll('button, input:not([type=hidden]), select, a[href], [role=tab]')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= width + 0.5) continue;
    let clipped = false;
    for (let p = el.parentElement; p && !clipped; p = p.parentElement) {
      clipped = ['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX) && p.getBoundingClientRect().right <= width + 0.5;
    }
    if (!clipped) out.push(el.tagName.toLowerCase() + ' "' + (el.textContent || '').trim().slice(0, 30) + '" ends at ' + Math.round(r.right) + 'px');
  }
  return out;
})()`;

function overflowingControls(page: Page): Promise<string[]> {
  return page.evaluate(overflowScript) as Promise<string[]>;
}

/** Each text is inside the viewport and shown whole, not cut to a few letters. */
async function readable(page: Page | Locator, names: string[]): Promise<void> {
  for (const name of names) {
    const text = page.getByText(name, { exact: true }).first();
    const box = await text.boundingBox();
    expect(box, name).to.not.equal(null);
    expect(box!.x, name).to.be.at.least(0);
    expect(box!.x + box!.width, name).to.be.at.most(phone.width);
    expect(await text.evaluate((el) => el.scrollWidth - el.clientWidth), `${name} is cut`).to.be.at.most(1);
  }
}

/** Issue 11: every core app works at 390x844, names first, nothing off the screen. */
describe('e2e: the core apps at phone size', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let shareId: number;
  const names = ['Holidays in the mountains 2026', 'IMG_2026_summer_lake_1.jpg'];

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    const admin = await box.signIn();
    const made = await makeShare(admin, 'Photos');
    shareId = made.share.id;
    mkdirSync(path.join(made.folder, names[0]!));
    writeFileSync(path.join(made.folder, names[1]!), 'x'.repeat(2048));
    ({ context, page } = await openDesktop(browser, box.url, { viewport: phone }));
  });
  after(async () => {
    await context?.close();
    await stopBrowserBox({ box, browser });
    removeTempFolders();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed()) await page.screenshot({ path: screenshotPath('phone-layout-failure') });
  });

  const open = async (route: string, shot: string) => {
    await page.goto(`${box.url}${route}`);
    await page.locator('[role="dialog"][data-app]').first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: screenshotPath(`phone-${shot}`) });
  };

  it('Files: the folder takes the width, names first; the share list is one tap back; rare commands fold into More', async () => {
    await open(`/app/org.service.files/${shareId}`, 'files');
    await readable(page, names);
    expect(await overflowingControls(page)).to.deep.equal([]);
    expect(await page.getByRole('navigation', { name: filesEn['files.shares.label'] }).isVisible()).to.equal(false);

    const more = page.getByRole('button', { name: filesEn['files.action.more'] });
    await more.click();
    const rename = page.getByRole('button', { name: filesEn['files.action.rename'] });
    expect(await rename.isVisible()).to.equal(true);
    expect(await overflowingControls(page)).to.deep.equal([]);
    await page.keyboard.press('Escape');
    expect(await rename.isVisible()).to.equal(false);
    expect(await more.evaluate((el) => el === document.activeElement)).to.equal(true);

    await page.getByRole('button', { name: `‹ ${filesEn['files.shares.title']}` }).click();
    const shareButton = page.getByRole('navigation', { name: filesEn['files.shares.label'] }).getByRole('button', { name: 'Photos' });
    await readable(shareButton, ['Photos']);
    expect(await overflowingControls(page)).to.deep.equal([]);
  });

  /** The window's name (the app's, then the section's) in its title bar, whole and on the screen. */
  const windowName = async (name: string) => {
    const title = page.locator('[role="dialog"][data-app] .titlebar h2').first();
    const text = (await title.textContent())?.trim() ?? '';
    expect(text.startsWith(name), text).to.equal(true);
    const box = await title.boundingBox();
    expect(box!.x, text).to.be.at.least(0);
    expect(box!.x + box!.width, text).to.be.at.most(phone.width);
    expect(await title.evaluate((el) => el.scrollWidth - el.clientWidth), `${text} is cut`).to.be.at.most(1);
  };
  const sectionTabs = () => page.getByRole('tablist', { name: controlPanelEn['controlPanel.sections'] });

  it('Control Panel: the sections are a row of tabs above the list, the share names readable', async () => {
    await open('/app/org.service.control-panel/shares', 'control-panel');
    // Laid out as a row, the tabs say so to a screen reader (their arrow keys move either way).
    expect(await sectionTabs().getAttribute('aria-orientation')).to.equal('horizontal');
    await readable(page, ['Photos']);
    expect(await overflowingControls(page)).to.deep.equal([]);
    await open('/app/org.service.control-panel/users', 'control-panel-users');
    await readable(page, ['admin']);
    expect(await overflowingControls(page)).to.deep.equal([]);
  });

  it('Storage Manager and Logs keep every control on the screen', async () => {
    await open('/app/org.service.storage-manager', 'storage-manager');
    await windowName(storageEn['storage.title']);
    expect(await overflowingControls(page)).to.deep.equal([]);
    await open('/app/org.service.logs', 'logs');
    await windowName(logsEn['logs.title']);
    expect(await overflowingControls(page)).to.deep.equal([]);
    // The messages, not the time or level, get the width.
    const message = await page.locator('.message').first().boundingBox();
    expect(message?.width).to.be.greaterThan(150);
  });

  it('in German, with its longer words, keeps the tables, tabs and window names on the screen', async () => {
    // The language comes with the session: a German sign-in in a context of its own.
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    const english = page;
    const german = await openDesktop(browser, box.url, { viewport: phone, locale: 'de-DE' });
    page = german.page;
    try {
      for (const [route, name] of [
        ['/app/org.service.control-panel/shares', controlPanelDe['controlPanel.title']],
        ['/app/org.service.control-panel/users', controlPanelDe['controlPanel.title']],
        ['/app/org.service.storage-manager', storageDe['storage.title']],
        ['/app/org.service.logs', logsDe['logs.title']],
      ] as const) {
        await open(route, `de-${route.split('/').slice(2).join('-')}`);
        await windowName(name);
        expect(await overflowingControls(page), route).to.deep.equal([]);
      }
      await open('/app/org.service.control-panel/shares', 'de-control-panel-shares');
      await readable(page, ['Photos']);
      expect(await page.getByRole('tablist', { name: controlPanelDe['controlPanel.sections'] }).getAttribute('aria-orientation')).to.equal('horizontal');
    } finally {
      page = english;
      await german.context.close();
      await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });

  it('keeps the sidebars beside the lists in a desktop-size window', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await open(`/app/org.service.files/${shareId}`, 'files-desktop');
    expect(await page.getByRole('navigation', { name: filesEn['files.shares.label'] }).isVisible()).to.equal(true);
    expect(await page.getByRole('button', { name: filesEn['files.action.more'] }).isVisible()).to.equal(false);
    expect(await page.getByRole('button', { name: filesEn['files.action.rename'] }).isVisible()).to.equal(true);
    await open('/app/org.service.control-panel/shares', 'control-panel-desktop');
    expect(await sectionTabs().getAttribute('aria-orientation')).to.equal('vertical');
  });
});
