import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import desktopEn from '../../web/src/desktop/i18n/en.json' with { type: 'json' };
import { screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { type TestDaemon } from '../helpers/daemon.ts';
import { desktopReady, eventually, openDesktop } from '../helpers/desktop.ts';
import { photo } from '../helpers/images.ts';

describe('e2e: uploaded wallpaper', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    ({ context, page } = await openDesktop(browser, box.url));
  });

  after(async () => {
    await context?.close();
    await stopBrowserBox({ box, browser });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && !page.isClosed()) await page.screenshot({ path: screenshotPath('desktop-wallpaper-failure') });
  });

  const panel = () => page.locator('[role="dialog"][data-app="org.service.settings"]');
  /** What the desktop really paints: the computed background of its element. */
  const background = () => page.locator('.desktop').evaluate((el) => getComputedStyle(el).backgroundImage);

  it('uploads an image from the appearance settings, shows it as the desktop background and keeps it over a reload', async () => {
    await page.goto(`${box.url}/app/org.service.settings/appearance`);
    await desktopReady(page);
    const upload = panel().getByRole('button', { name: desktopEn['desktopSettings.wallpaper.upload'] });
    // A real button, reachable by keyboard: focusing it shows the focus ring.
    await upload.focus();
    expect(await upload.evaluate((el) => getComputedStyle(el).outlineStyle)).to.equal('solid');
    const image = await photo(1600, 900, 4).jpeg({ quality: 85 }).toBuffer();
    await panel().locator('input[type="file"]').setInputFiles({ name: 'holiday.jpg', mimeType: 'image/jpeg', buffer: image });
    const custom = panel().getByRole('radio', { name: desktopEn['desktopSettings.wallpaper.custom'] });
    await custom.waitFor();
    expect(await custom.getAttribute('aria-checked')).to.equal('true');
    await eventually(background, (v) => v.includes('/api/desktop/wallpaper?v='), 'the custom background');
    // The preview tile has loaded the stored image.
    await eventually(
      () => custom.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      (w) => w === 1600,
      'the preview image',
    );
    await page.screenshot({ path: screenshotPath('desktop-wallpaper-custom') });

    await page.reload();
    await desktopReady(page);
    await eventually(background, (v) => v.includes('/api/desktop/wallpaper?v='), 'the custom background after a reload');
    const state = await (await box.signIn()).api.desktop.get({ headers: { 'X-Device-Id': 'another-device' } });
    expect(state.appearance.wallpaper).to.equal('custom');
    expect(await background()).to.contain(`v=${state.appearance.wallpaperVersion}`);
  });

  it('removes the image after confirming and falls back to a built-in wallpaper', async () => {
    await panel().getByRole('button', { name: desktopEn['desktopSettings.wallpaper.remove'] }).click();
    // The question names the dialog (the one ConfirmDialog of web/src/lib/ui).
    const confirm = page.getByRole('dialog', { name: desktopEn['desktopSettings.wallpaper.removeConfirm'] });
    await confirm.waitFor();
    await page.screenshot({ path: screenshotPath('desktop-wallpaper-confirm') });
    await confirm.getByRole('button', { name: desktopEn['desktopSettings.wallpaper.removeYes'] }).click();
    await eventually(background, (v) => !v.includes('/api/desktop/wallpaper') && v.includes('gradient'), 'a built-in background');
    expect(await panel().getByRole('radio', { name: desktopEn['desktopSettings.wallpaper.aurora'] }).getAttribute('aria-checked')).to.equal('true');
    expect(await panel().getByRole('radio', { name: desktopEn['desktopSettings.wallpaper.custom'] }).count()).to.equal(0);
    const state = await (await box.signIn()).api.desktop.get({ headers: { 'X-Device-Id': 'another-device' } });
    expect(state.appearance).to.deep.equal({ accentColor: '#2f6fdf', wallpaper: 'aurora' });
  });

  it('says in words why a file is refused', async () => {
    await panel()
      .locator('input[type="file"]')
      .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
    // The daemon names the reason (notAnImage), and the desktop says that reason, not the general text.
    await panel().getByRole('alert').filter({ hasText: 'That file is not an image.' }).waitFor();
    await page.screenshot({ path: screenshotPath('desktop-wallpaper-refused') });
  });
});
