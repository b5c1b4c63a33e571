import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import desktopDe from '../../web/src/desktop/i18n/de.json' with { type: 'json' };
import desktopEn from '../../web/src/desktop/i18n/en.json' with { type: 'json' };
import { phoneViewport, screenshotPath, signInThroughPage, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { adminPassword, type TestDaemon } from '../helpers/daemon.ts';

describe('e2e: the start menu’s hint fits the input', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
  });

  const cases = [
    {
      name: 'a phone with touch, in German',
      touch: true,
      language: 'de' as const,
      viewport: phoneViewport,
      hint: desktopDe['start.hintTouch'],
      not: 'Umschalt+F10',
    },
    {
      name: 'a mouse and keyboard at 1366x820, in English',
      touch: false,
      language: 'en' as const,
      viewport: { width: 1366, height: 820 },
      hint: desktopEn['start.hint'],
      not: 'hold',
    },
  ];

  for (const c of cases) {
    it(`says how to add an app to the desktop on ${c.name}`, async () => {
      // The signed-in user's language is the desktop's.
      const admin = await box.signIn();
      await admin.api.users.update({ params: { userId: admin.user?.id ?? 0 }, body: { language: c.language } });
      const context = await browser.newContext({ viewport: c.viewport, hasTouch: c.touch, isMobile: c.touch });
      const page = await context.newPage();
      await signInThroughPage(page, box.url, 'admin', adminPassword);
      await page.locator('nav.taskbar button').first().click();
      const hint = page.locator('p.hint');
      await hint.waitFor();
      expect((await hint.innerText()).trim()).to.equal(c.hint);
      expect(await hint.innerText()).to.not.contain(c.not);
      await page.screenshot({ path: screenshotPath(`start-menu-hint-${c.touch ? 'touch' : 'mouse'}`) });
      await context.close();
    });
  }
});
