import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import regionEn from '../../web/src/apps/control-panel/region/i18n/en.json' with { type: 'json' };
import de from '../../web/src/lib/i18n/de.json' with { type: 'json' };
import en from '../../web/src/lib/i18n/en.json' with { type: 'json' };
import { openControlPanelSection, screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import type { TestDaemon } from '../helpers/daemon.ts';

describe('e2e: the box language and region', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
  });

  it('an administrator sets German and Austria; a browser asking for French then signs in in German', async () => {
    const { context: admin, page: p, panel } = await openControlPanelSection(browser, box, 'region', { viewport: { width: 1280, height: 800 } });
    const language = panel.getByLabel(regionEn['controlPanel.region.language'], { exact: true });
    await language.and(p.locator(':enabled')).waitFor();
    await language.selectOption('de');
    await panel.getByLabel(regionEn['controlPanel.region.region'], { exact: true }).selectOption('AT');
    // By keyboard: Save is reached with Tab and pressed with Enter.
    await panel.getByRole('button', { name: regionEn['controlPanel.region.save'] }).focus();
    await p.keyboard.press('Enter');
    await panel.getByRole('status').filter({ hasText: regionEn['controlPanel.region.saved'] }).waitFor();
    await p.screenshot({ path: screenshotPath('control-panel-region') });
    expect(await (await box.signIn()).api.system.region()).to.deep.equal({ language: 'de', region: 'AT' });
    // The administrator keeps English, now written as in Austria: a 24-hour clock instead of en-US's AM/PM.
    expect(await p.locator('time.clock').innerText()).to.match(/(AM|PM)$/);
    await p.reload();
    await p
      .locator('time.clock')
      .filter({ hasText: /^\d\d:\d\d$/ })
      .waitFor();
    await admin.close();

    // French is not offered: the sign-in page falls back to the box's language.
    const french = await browser.newContext({ locale: 'fr-FR' });
    const signIn = await french.newPage();
    await signIn.goto(box.url);
    await signIn.getByRole('button', { name: de['signIn.submit'] }).waitFor();
    expect(await signIn.locator('html').getAttribute('lang')).to.equal('de');
    // An English browser still gets English.
    const english = await browser.newContext({ locale: 'en-GB' });
    const page = await english.newPage();
    await page.goto(box.url);
    await page.getByRole('button', { name: en['signIn.submit'] }).waitFor();
    await french.close();
    await english.close();
  });
});
