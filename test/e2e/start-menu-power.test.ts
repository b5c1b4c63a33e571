import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import desktopEn from '../../web/src/desktop/i18n/en.json' with { type: 'json' };
import shellEn from '../../web/src/lib/i18n/en.json' with { type: 'json' };
import powerEn from '../../web/src/apps/control-panel/power/i18n/en.json' with { type: 'json' };
import { screenshotPath, signInThroughPage, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import type { TestDaemon } from '../helpers/daemon.ts';
import { insertUser } from '../helpers/users.ts';

// The Control Panel is for administrators: a user who holds only the restart and shut-down right restarts from the start menu.
describe('e2e: restart from the start menu with the restart and shut-down right', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;

  before(async () => {
    // A development daemon logs the power command and runs nothing; the long delay keeps it from even that during the test.
    ({ box, browser } = await startBrowserBox({ daemon: { system: { powerDelayMs: 600_000 } } }));
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
  });

  it('shows restart and shut down to the holder of the right only, asks first, and restarts on confirmation', async () => {
    const admin = await box.signIn();
    const pietId = await insertUser(box, 'piet', 'piet password 1');
    await insertUser(box, 'anna', 'anna password 1');
    await admin.api.permissions.setUserGrants({ params: { userId: pietId }, body: { rights: ['system.power'] } });

    const openMenu = async (username: string, password: string) => {
      const context = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await signInThroughPage(page, box.url, username, password);
      await page.getByRole('button', { name: shellEn['taskbar.start'], exact: true }).click();
      await page.getByRole('menu', { name: desktopEn['start.title'] }).waitFor();
      return page;
    };

    // Without the right there is nothing to press (the box would refuse it anyway).
    const anna = await openMenu('anna', 'anna password 1');
    await anna.waitForTimeout(1000);
    expect(await anna.getByTestId('start-power').count()).to.equal(0);
    await anna.context().close();

    const page = await openMenu('piet', 'piet password 1');
    const power = page.getByTestId('start-power');
    await power.getByRole('button', { name: powerEn['controlPanel.power.restart'], exact: true }).click();
    const dialog = page.getByRole('dialog', { name: powerEn['controlPanel.power.confirmRestart'] });
    await dialog.getByText(powerEn['controlPanel.power.noJobs']).waitFor();
    await page.screenshot({ path: screenshotPath('start-menu-power-confirm') });
    // Cancel first: nothing happens.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await admin.api.systemOverview.powerState()).pending).to.equal(null);
    // Then with the keyboard: the dialog's restart button submits.
    await power.getByRole('button', { name: powerEn['controlPanel.power.restart'], exact: true }).click();
    await dialog.getByRole('button', { name: powerEn['controlPanel.power.restart'], exact: true }).focus();
    await page.keyboard.press('Enter');
    await power.getByRole('status').filter({ hasText: 'The box restarts at' }).waitFor();
    expect((await admin.api.systemOverview.powerState()).pending?.action).to.equal('restart');
    await page.context().close();
  });
});
