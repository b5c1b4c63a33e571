import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import de from '../../web/src/lib/i18n/de.json' with { type: 'json' };
import en from '../../web/src/lib/i18n/en.json' with { type: 'json' };
import timeDe from '../../web/src/apps/control-panel/time/i18n/de.json' with { type: 'json' };
import { artifacts, expectText, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import type { TestDaemon } from '../helpers/daemon.ts';

// A development daemon waiting for its owner as a box from the package does (the same code path;
// the package test runs the real box-mode daemon from the installed files).
describe('e2e: first-run setup of a box without administrator', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    ({ box, browser } = await startBrowserBox({ daemon: { firstRunSetup: true } }));
    // A phone: the setup is often done from one.
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
    page = await context.newPage();
  });

  after(async () => {
    await context?.close();
    await stopBrowserBox({ box, browser });
  });

  it('asks for the setup code, speaks the language chosen, refuses a wrong code, then sets up and opens the desktop', async () => {
    await page.goto(box.url);
    await page.getByRole('heading', { name: en['firstRun.title'].replace('{product}', 'Cellar') }).waitFor();
    await page.getByLabel(en['firstRun.language']).selectOption('de');
    await page.getByRole('heading', { name: de['firstRun.title'].replace('{product}', 'Cellar') }).waitFor();
    await page.getByLabel(de['firstRun.code']).fill('AAAAA-AAAAA');
    await page.getByLabel(de['firstRun.region']).selectOption('AT');
    // The zones offered are the box's own, the list of the Control Panel's Time section, in the same field.
    const zone = page.getByRole('combobox', { name: de['firstRun.timeZone'] });
    await zone.focus();
    const offered = (await page.getByRole('listbox', { name: de['firstRun.timeZone'] }).getByRole('option').allTextContents()).map((z) => z.trim());
    expect(offered).to.deep.equal((await box.client().api.firstRun.zones()).zones);
    expect(offered).to.include('Europe/Vienna');
    await zone.fill('vienna');
    await page.getByRole('option', { name: 'Europe/Vienna' }).click();
    expect(await zone.inputValue()).to.equal('Europe/Vienna');
    await expectText(page.locator(`[id="${await zone.getAttribute('aria-describedby')}"]`), timeDe['controlPanel.time.zoneHint']);
    await page.getByLabel(de['firstRun.boxName']).fill('Keller');
    await page.getByLabel(de['firstRun.username']).fill('owner');
    await page.getByLabel(de['firstRun.password'], { exact: true }).fill('a long enough passphrase');
    await page.getByLabel(de['firstRun.repeat']).fill('a long enough passphrase');
    await page.getByRole('button', { name: de['firstRun.submit'] }).click();
    await expectText(page.getByRole('alert'), de['error.setup.code.invalid']);
    // The refusal follows a change of the language chosen, there and back.
    await page.getByLabel(de['firstRun.language']).selectOption('en');
    await expectText(page.getByRole('alert'), en['error.setup.code.invalid']);
    await page.getByLabel(en['firstRun.language']).selectOption('de');
    await expectText(page.getByRole('alert'), de['error.setup.code.invalid']);

    const code = readFileSync(path.join(box.dataDir, 'setup-code'), 'utf8').trim();
    // Typed as people do: lower case.
    await page.getByLabel(de['firstRun.code']).fill(code.toLowerCase());
    // Nothing of the card leaves a phone's width.
    const overflow = await page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
    expect(overflow).to.equal(false);
    await page.screenshot({ path: path.join(artifacts, 'first-run-de-phone.png'), fullPage: true });
    await page.getByRole('button', { name: de['firstRun.submit'] }).click();
    await page.getByRole('navigation', { name: de['taskbar.label'] }).waitFor();

    const setup = await box.client().api.system.setup();
    expect(setup).to.include({ setupCode: false, boxName: 'Keller', language: 'de', region: 'AT' });
    const owner = await box.signIn('owner', 'a long enough passphrase');
    expect(owner.user).to.include({ username: 'owner', admin: true, language: 'de' });
    expect((await owner.api.systemTime.time()).timeZone).to.equal('Europe/Vienna');
  });
});
