import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import controlPanelEn from '../../web/src/apps/control-panel/i18n/en.json' with { type: 'json' };
import sharesEn from '../../web/src/apps/control-panel/shares/i18n/en.json' with { type: 'json' };
import { type TestDaemon } from '../helpers/daemon.ts';
import { screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { openDesktop } from '../helpers/desktop.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';

const phone = { width: 390, height: 844 };

/**
 * What keeps a table from being read whole at the page's width: a cell past the screen's edge, a cell
 * whose text is cut, a box around a table that scrolls sideways, the page scrolling sideways.
 * A string, not a function: the test runner's transform would add helpers the page lacks.
 */
const tableProblemsScript = `(() => {
  const width = window.innerWidth;
  const out = [];
  const tables = [...document.querySelectorAll('[role="dialog"][data-app] table')].filter((t) => t.getBoundingClientRect().height > 0);
  if (tables.length === 0) out.push('no table shown');
  if (document.scrollingElement.scrollWidth > width) out.push('the page scrolls sideways (' + document.scrollingElement.scrollWidth + 'px)');
  for (const table of tables) {
    const name = table.getAttribute('aria-label') || table.getAttribute('aria-labelledby') || 'table';
    for (let p = table.parentElement; p; p = p.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX) && p.scrollWidth > p.clientWidth + 1) {
        out.push(name + ': a box around it scrolls sideways (' + p.scrollWidth + ' in ' + p.clientWidth + 'px)');
      }
    }
    for (const cell of table.querySelectorAll('tbody td, tbody th')) {
      const r = cell.getBoundingClientRect();
      if (r.width === 0) continue;
      const text = (cell.textContent || '').trim().slice(0, 20);
      if (r.left < -0.5 || r.right > width + 0.5) out.push(name + ': "' + text + '" lies at ' + Math.round(r.left) + '..' + Math.round(r.right) + 'px');
      else if (cell.scrollWidth > cell.clientWidth + 1) out.push(name + ': "' + text + '" is cut');
    }
  }
  return out;
})()`;

/** Issue 31 (phone): the Control Panel's tables stack their rows at 390 px, every column readable, nothing sideways. */
describe('e2e: tables at phone size', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    const admin = await box.signIn();
    await makeShare(admin, 'Family photos and videos');
    ({ context, page } = await openDesktop(browser, box.url, { viewport: phone }));
  });
  after(async () => {
    await context?.close();
    await stopBrowserBox({ box, browser });
    removeTempFolders();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed()) await page.screenshot({ path: screenshotPath('phone-tables-failure') });
  });

  const open = async (route: string, shot: string, shown = '[role="dialog"][data-app] table') => {
    await page.goto(`${box.url}${route}`);
    await page.locator(shown).first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: screenshotPath(`phone-tables-${shot}`) });
  };
  const problems = () => page.evaluate(tableProblemsScript) as Promise<string[]>;

  /** Each value of the row stands beside its column's heading, so a stacked row still says what it is. */
  async function labelled(rowText: string, heading: string): Promise<void> {
    const row = page.locator('[role="dialog"][data-app] tbody tr', { hasText: rowText }).first();
    const labels = await row.locator('td, th').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
    // The shown heading, with empty alternative text (`/ ""`): readers get it from the column header role.
    expect(labels, rowText).to.include(`${JSON.stringify(heading)} / ""`);
  }

  it('Shares: every column of a share readable, nothing scrolls sideways', async () => {
    await open('/app/org.service.control-panel/shares', 'shares');
    expect(await problems()).to.deep.equal([]);
    await labelled('Family photos and videos', sharesEn['controlPanel.shares.hostPath']);
  });

  it('Users: the last column (two-step sign-in) on the screen', async () => {
    await open('/app/org.service.control-panel/users', 'users');
    expect(await problems()).to.deep.equal([]);
    await labelled('admin', controlPanelEn['controlPanel.users.twoStep']);
  });

  it('Permissions: a user’s rights with own, group and effective columns on the screen', async () => {
    await open('/app/org.service.control-panel/permissions', 'permissions-empty', '#permissions-subject');
    await page.locator('#permissions-subject').selectOption({ index: 1 });
    await page.locator('[role="dialog"][data-app] table').first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: screenshotPath('phone-tables-permissions') });
    expect(await problems()).to.deep.equal([]);
  });

  it('in German, with its longer words, the Users and Shares tables stay whole', async () => {
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    const english = { context, page };
    ({ context, page } = await openDesktop(browser, box.url, { viewport: phone, locale: 'de-DE' }));
    try {
      for (const section of ['users', 'shares']) {
        await open(`/app/org.service.control-panel/${section}`, `de-${section}`);
        expect(await problems(), section).to.deep.equal([]);
      }
    } finally {
      await context.close();
      ({ context, page } = english);
      await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });
});
