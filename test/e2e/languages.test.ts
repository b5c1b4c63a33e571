import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import controlPanelDe from '../../web/src/apps/control-panel/i18n/de.json' with { type: 'json' };
import controlPanelEn from '../../web/src/apps/control-panel/i18n/en.json' with { type: 'json' };
import settingsDe from '../../web/src/apps/personal-settings/i18n/de.json' with { type: 'json' };
import settingsEn from '../../web/src/apps/personal-settings/i18n/en.json' with { type: 'json' };
import { openControlPanelSection, phoneViewport, screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import type { TestDaemon } from '../helpers/daemon.ts';
import { desktopReady, openDesktop } from '../helpers/desktop.ts';

const password = 'lang-test-pass-42';

describe('e2e: languages finished', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    const admin = await box.signIn();
    await admin.api.users.create({ body: { username: 'lang-ann', password, language: 'en' } });
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
  });

  const languageOf = async (username: string) => {
    const admin = await box.signIn();
    return (await admin.api.users.list()).find((u) => u.username === username)?.language;
  };

  it('a user switches to German in personal settings on a phone; the desktop follows at once and after a reload', async () => {
    const { context, page } = await openDesktop(browser, box.url, { username: 'lang-ann', password, viewport: phoneViewport });
    await page.goto(`${box.url}/app/org.service.settings/language`);
    await desktopReady(page);
    const settings = page.locator('[role="dialog"][data-app="org.service.settings"]');
    await settings.getByLabel(settingsEn['account.language.label'], { exact: true }).selectOption('de');
    await settings.getByRole('button', { name: settingsEn['account.language.submit'] }).click();
    // Saved, and said in the new language: every open window switched.
    await settings.getByRole('status').filter({ hasText: settingsDe['account.language.saved'] }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).to.equal('de');
    await page.screenshot({ path: screenshotPath('settings-language-phone') });
    expect(await languageOf('lang-ann')).to.equal('de');
    await page.reload();
    await desktopReady(page);
    await settings.getByRole('button', { name: settingsDe['account.language.submit'] }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).to.equal('de');
    // Labels break at German syllables: hyphenation follows the page's language.
    expect(await settings.getByRole('heading', { name: settingsDe['account.language.heading'] }).evaluate((el) => getComputedStyle(el).hyphens)).to.equal(
      'auto',
    );
    await context.close();
  });

  it('an administrator changes the user’s language back in Users, Edit at 1366x820', async () => {
    const { context, page, panel } = await openControlPanelSection(browser, box, 'users', { viewport: { width: 1366, height: 820 } });
    await panel.getByRole('button', { name: 'lang-ann', exact: true }).click();
    await panel.getByRole('button', { name: controlPanelEn['controlPanel.users.edit'], exact: true }).click();
    const dialog = page.getByRole('dialog', { name: controlPanelEn['controlPanel.users.editTitle'].replace('{username}', 'lang-ann') });
    const language = dialog.getByLabel(controlPanelEn['controlPanel.users.language'], { exact: true });
    // The form starts from the user's language, so saving other fields keeps it.
    expect(await language.inputValue()).to.equal('de');
    await language.selectOption('en');
    await dialog.getByRole('button', { name: controlPanelEn['controlPanel.save'], exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await languageOf('lang-ann')).to.equal('en');
    await context.close();
  });

  it('Permissions shows Files as a right every user holds, in German on a phone', async () => {
    const admin = await box.signIn();
    const ann = (await admin.api.users.list()).find((u) => u.username === 'lang-ann');
    const { context, page, panel } = await openControlPanelSection(browser, box, `permissions/user/${ann?.id}`, { locale: 'de-DE' });
    await admin.api.users.update({ params: { userId: admin.user!.id }, body: { language: 'de' } });
    await page.reload();
    const files = panel.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^Dateien/ }) });
    await files.waitFor();
    // No checkbox that could take Files away, and in effect: yes.
    expect(await files.getByRole('checkbox').count()).to.equal(0);
    const cells = await files.getByRole('cell').allInnerTexts();
    expect(cells.map((c) => c.trim())).to.deep.equal([controlPanelDe['controlPanel.permissions.everyUser'], '–', controlPanelDe['controlPanel.yes']]);
    await page.screenshot({ path: screenshotPath('permissions-files-phone-de') });
    await admin.api.users.update({ params: { userId: admin.user!.id }, body: { language: 'en' } });
    await context.close();
  });
});
