import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import controlPanelDe from '../../web/src/apps/control-panel/i18n/de.json' with { type: 'json' };
import sharesDe from '../../web/src/apps/control-panel/shares/i18n/de.json' with { type: 'json' };
import filesDe from '../../web/src/apps/files/i18n/de.json' with { type: 'json' };
import logsDe from '../../web/src/apps/logs/i18n/de.json' with { type: 'json' };
import { openControlPanelSection, screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import type { TestClient, TestDaemon } from '../helpers/daemon.ts';
import { desktopReady, openDesktop } from '../helpers/desktop.ts';
import { makeShare, removeTempFolders, tempFolder } from '../helpers/shares.ts';

const wide = { width: 1366, height: 820 };

/** What the daemon says in codes (log messages, reasons, built-in texts) reads German for a German administrator. */
describe('e2e: codes rendered in German', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;
  let admin: TestClient;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    admin = await box.signIn();
    await admin.api.users.update({ params: { userId: admin.user!.id }, body: { language: 'de' } });
    const { share } = await makeShare(admin, 'Familie');
    await admin.api.shares.update({ params: { shareId: share.id }, body: { description: 'Fotos und Briefe' } });
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
    removeTempFolders();
  });

  it('the Logs app shows a sign-in and a share change as German sentences', async () => {
    const { context, page } = await openDesktop(browser, box.url, { viewport: wide, locale: 'de-DE' });
    await page.goto(`${box.url}/app/org.service.logs`);
    await desktopReady(page);
    const logs = page.locator('[role="dialog"][data-app="org.service.logs"]');
    const signedIn = logsDe['logs.msg.auth.signedIn'].replace('{username}', 'admin').replace('{how}', logsDe['logs.param.how.password']);
    const shareChanged = logsDe['logs.msg.shares.changed'].replace('{name}', 'Familie');
    // The daemon of a test logs its SQL at debug level: a search narrows the list to the two entries.
    const search = async (words: string) => {
      await logs.getByLabel(logsDe['logs.filter.search'], { exact: true }).fill(words);
      await logs.getByRole('button', { name: logsDe['logs.filter.searchSubmit'], exact: true }).click();
    };
    await search('signed in');
    await logs.locator('.message', { hasText: signedIn }).first().waitFor();
    await search('share changed');
    await logs.locator('.message', { hasText: shareChanged }).first().waitFor();
    expect(signedIn).to.equal('admin hat sich angemeldet (Passwort).');
    // The English message the store keeps stays out of sight where the code has a German text.
    expect(await logs.locator('.message', { hasText: /^share changed$/ }).count()).to.equal(0);
    await page.screenshot({ path: screenshotPath('logs-german-codes') });
    await context.close();
  });

  it('a refused host folder names its reason in German, not the raw code', async () => {
    const { context, page, panel } = await openControlPanelSection(browser, box, 'shares', { viewport: wide, locale: 'de-DE' });
    await panel.getByRole('button', { name: sharesDe['controlPanel.shares.register.open'] }).click();
    const dialog = page.getByRole('dialog', { name: sharesDe['controlPanel.shares.register.title'] });
    await dialog.getByLabel(sharesDe['controlPanel.shares.hostPath'], { exact: true }).fill(`${tempFolder()}/not-there`);
    await dialog.getByLabel(sharesDe['controlPanel.shares.name'], { exact: true }).fill('Fehlt');
    await dialog.getByRole('button', { name: sharesDe['controlPanel.shares.register.submit'] }).click();
    await dialog.getByText(filesDe['error.fs.share.folder_invalid.reason.missing']).waitFor();
    expect(await dialog.textContent()).to.not.contain('(missing)');
    await context.close();
  });

  it('Groups shows the built-in group’s description in German', async () => {
    const { context, panel } = await openControlPanelSection(browser, box, 'groups', { viewport: wide, locale: 'de-DE' });
    const row = panel.getByRole('row').filter({ hasText: 'users' });
    await row.locator('.description').getByText(controlPanelDe['controlPanel.groups.builtInDescription.users'], { exact: true }).waitFor();
    expect(await row.textContent()).to.not.contain('Every user of the box');
    await context.close();
  });
});
