import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { coreApps } from '../../shared/src/apps.ts';
import { sections } from '../../web/src/apps/control-panel/sections.ts';
import { storageSections } from '../../web/src/apps/storage-manager/sections.ts';
import { settingsPanels } from '../../web/src/desktop/settings/panels.ts';
import { phoneViewport, screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import type { TestDaemon } from '../helpers/daemon.ts';
import { desktopReady, openDesktop } from '../helpers/desktop.ts';

/**
 * Opens every core app, every Control Panel section and every personal settings panel in German
 * at 1366x820 and on a phone, writes a screenshot of each to test/artifacts/walk-*.png (for a
 * person to look at) and asserts what a script can see: no message key in the visible text and
 * no control cut off by its window.
 */

/** A word of visible text that reads like a message key (`controlPanel.backup.count`), not a host name (`0.debian.pool.ntp.org`). */
const rawKey = /^[a-z][a-zA-Z]*\.[a-z][a-zA-Z]*\.[a-z][a-zA-Z]*$/;

/** Every text of the web's dictionaries in one language (the shared ones and each app's and the desktop's own). */
function dictionaryTexts(language: 'en' | 'de'): string[] {
  const web = path.resolve(import.meta.dirname, '../../web/src');
  const files = readdirSync(web, { recursive: true, encoding: 'utf8' }).filter((f) => path.basename(f) === `${language}.json` && f.includes('i18n'));
  return files.flatMap((f) => Object.values(JSON.parse(readFileSync(path.join(web, f), 'utf8')) as Record<string, string>));
}

const wordsOf = (text: string) =>
  text
    .replace(/\{[^}]*\}/g, ' ')
    .toLowerCase()
    .match(/\p{L}{4,}/gu) ?? [];

/**
 * Words of the English texts that no German text uses (`schedule`, `every`, `folder`): one of them
 * in the German desktop is a text left in English. Words both use (`Name`, `Server`, `Pool`) say nothing.
 */
const englishOnly = (() => {
  const german = new Set(dictionaryTexts('de').flatMap(wordsOf));
  return new Set(
    dictionaryTexts('en')
      .flatMap(wordsOf)
      .filter((w) => !german.has(w)),
  );
})();

/**
 * The visible text a person reads as the desktop's own words: not what is marked `translate="no"`
 * (a log source, an entry kept in the words it was written in), and no identifiers (paths, dataset
 * and host names: tokens with a slash, dot, dash, underscore or digit inside).
 */
const ownWordsScript = `(() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('[translate="no"], script, style') || !el.checkVisibility()) continue;
    const tokens = node.textContent.split(/\\s+/).map((token) => token.replace(/[.,;:!?…)"“]+$/u, ''));
    out.push(...tokens.filter((token) => !/\\p{L}[\\/._\\d-]|[\\/._\\d-]\\p{L}/u.test(token)));
  }
  return out.join(' ');
})()`;

/**
 * Controls of the open window whose right or bottom edge passes the window's, unless an ancestor
 * inside the window scrolls them into reach (a table that scrolls sideways, the section tabs). A
 * string, not a function: the test runner's transform would add helpers the page lacks.
 */
const cutControlsScript = `(() => {
  const win = document.querySelector('[role="dialog"][data-app]:last-of-type') || document.querySelector('[role="dialog"][data-app]');
  if (!win) return ['no window'];
  const box = win.getBoundingClientRect();
  const out = [];
  if (document.scrollingElement.scrollWidth > window.innerWidth) out.push('the page scrolls sideways');
  for (const el of win.querySelectorAll('button, input:not([type=hidden]), select, textarea, a[href], summary')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right <= box.right + 0.5 && r.left >= box.left - 0.5) continue;
    let clipped = false;
    for (let p = el.parentElement; p && p !== win && !clipped; p = p.parentElement) {
      const style = getComputedStyle(p);
      // A strip that scrolls only sideways (the section tabs, a wide table) is meant to; a pane that
      // scrolls both ways hides what passes its edge.
      clipped = ['auto', 'scroll'].includes(style.overflowX) && !['auto', 'scroll'].includes(style.overflowY);
    }
    if (!clipped) out.push(el.tagName.toLowerCase() + ' "' + (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30) + '"');
  }
  // On a wide screen a table fits its window: its last column is not hidden behind a sideways scroll.
  if (window.innerWidth >= 1024) {
    for (const cell of win.querySelectorAll('table tr:first-child > :last-child')) {
      const r = cell.getBoundingClientRect();
      if (r.width > 0 && r.right > box.right + 0.5) out.push('table column "' + (cell.textContent || '').trim().slice(0, 30) + '"');
    }
  }
  return out;
})()`;

/**
 * File inputs the browser draws itself: their button and empty state ("Choose File", "No file
 * chosen") follow the browser's language, not the page's (lib/ui/FilePicker.svelte draws its own).
 */
const nativeFileInputsScript = `[...document.querySelectorAll('input[type=file]')]
  .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).opacity !== '0'; })
  .map((el) => el.getAttribute('aria-label') || el.id || 'unnamed')`;

const viewports = [
  { name: 'desktop', size: { width: 1366, height: 820 }, touch: false },
  { name: 'phone', size: phoneViewport, touch: true },
];

const screens = [
  ...coreApps.map((app) => ({ name: app.id.replace('org.service.', ''), route: `app/${app.id}` })),
  ...sections.map((s) => ({ name: `control-panel-${s.id}`, route: `app/org.service.control-panel/${s.id}` })),
  ...storageSections.map((s) => ({ name: `storage-${s.id}`, route: `app/org.service.storage-manager/${s.id}` })),
  ...settingsPanels.map((p) => ({ name: `settings-${p.id}`, route: `app/org.service.settings/${p.id}` })),
];

describe('e2e: screenshot walk in German', function () {
  this.timeout(600_000);
  let box: TestDaemon;
  let browser: Browser;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    const admin = await box.signIn();
    await admin.api.users.update({ params: { userId: admin.user?.id ?? 0 }, body: { language: 'de' } });
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
  });

  async function look(page: Page, name: string): Promise<string[]> {
    // Sections load their data after they appear; give them a moment to settle before looking.
    await page.waitForTimeout(700);
    await page.screenshot({ path: screenshotPath(`walk-${name}`) });
    const text = await page.locator('body').innerText();
    const words = text.split(/[\s,;:()"„“]+/).map((w) => w.replace(/[.…!?]+$/, ''));
    const keys = [...new Set(words.filter((w) => rawKey.test(w)))].map((k) => `${name}: raw key ${k}`);
    const own = (await page.evaluate(ownWordsScript)) as string;
    const english = [...new Set(wordsOf(own).filter((w) => englishOnly.has(w)))].map((w) => `${name}: English word ${w}`);
    const cut = ((await page.evaluate(cutControlsScript)) as string[]).map((c) => `${name}: cut ${c}`);
    const native = ((await page.evaluate(nativeFileInputsScript)) as string[]).map((f) => `${name}: the browser's own file field ${f}`);
    return [...keys, ...english, ...cut, ...native];
  }

  for (const { name: size, size: viewport, touch } of viewports) {
    it(`opens every app and section at ${viewport.width}x${viewport.height} with no raw key, no English word and no cut control`, async () => {
      const { context, page } = await openDesktop(browser, box.url, { viewport, locale: 'de-DE', touch });
      expect(await page.locator('html').getAttribute('lang')).to.equal('de');
      const problems: string[] = [];
      for (const screen of screens) {
        await page.goto(`${box.url}/${screen.route}`);
        await desktopReady(page);
        await page.locator('[role="dialog"][data-app]').first().waitFor();
        problems.push(...(await look(page, `${size}-${screen.name}`)));
      }
      await context.close();
      expect(problems).to.deep.equal([]);
    });
  }
});
