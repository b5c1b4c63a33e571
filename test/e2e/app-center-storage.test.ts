import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import de from '../../web/src/apps/app-center/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/app-center/i18n/en.json' with { type: 'json' };
import { fill } from '../helpers/app-packages.ts';
import { assertBrowserPrerequisites, launchChromium, screenshotPath, signInThroughPage, webDir } from '../helpers/browser.ts';
import { adminPassword, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';
import { example, installApp, storageApp } from '../helpers/storage-apps.ts';

const center = '/app/org.service.app-center';

describe('e2e: App Center storage mappings', function () {
  this.timeout(120_000);
  const appId = example.id;
  let box: TestDaemon;
  let admin: TestClient;
  let browser: Browser;
  let page: Page;
  let shareId: number;

  const mappingOf = async (storageId: string) =>
    (await admin.api.apps.list()).apps.find((a) => a.id === appId)?.storage.find((s) => s.storageId === storageId)?.mapping ?? null;
  const eventually = async (probe: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 50; i++) {
      if (await probe()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`never saw ${what}`);
  };

  before(async () => {
    assertBrowserPrerequisites();
    box = await startTestDaemon({ webDir });
    admin = await box.signIn();
    const { share, folder } = await makeShare(admin, 'media');
    shareId = share.id;
    for (const dir of ['Greetings/2026', 'Photos']) mkdirSync(path.join(folder, dir), { recursive: true });
    await installApp(admin, storageApp('1.0.0', { backend: null }));
    browser = await launchChromium();
    page = await (await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } })).newPage();
    await signInThroughPage(page, box.url, 'admin', adminPassword);
  });

  after(async () => {
    await browser?.close();
    await box?.close();
    removeTempFolders();
  });

  it('maps a folder picked in the share, read and write as the request allows', async () => {
    await page.goto(`${box.url}${center}/installed/${appId}`);
    await page.getByRole('heading', { name: 'Hello', exact: true }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: fill(en['appCenter.storage.mapLabel'], { storageId: 'greetings' }) }).click();
    const dialog = page.getByRole('dialog', { name: fill(en['appCenter.storage.dialog'], { storageId: 'greetings' }) });
    await dialog.getByLabel(en['appCenter.storage.share']).selectOption({ label: 'media' });
    await dialog.getByRole('button', { name: /Greetings/ }).click();
    await dialog.getByText(`${en['appCenter.storage.folder']}: /Greetings`, { exact: true }).waitFor();
    // Into 2026 and back up again: the keyboard reaches every folder as a button.
    await dialog.getByRole('button', { name: /2026/ }).focus();
    await page.keyboard.press('Enter');
    await dialog.getByText(`${en['appCenter.storage.folder']}: /Greetings/2026`, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: new RegExp(en['appCenter.storage.up']) }).click();
    await dialog.getByText(`${en['appCenter.storage.folder']}: /Greetings`, { exact: true }).waitFor();
    await dialog.getByRole('radio', { name: en['appCenter.access.readWrite'] }).check();
    await page.screenshot({ path: screenshotPath('app-center-map-folder-en') });
    await dialog.getByRole('button', { name: en['appCenter.storage.map.run'], exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await mappingOf('greetings')).to.deep.equal({ shareId, path: 'Greetings', access: 'readWrite' });
    const list = page.getByRole('list', { name: en['appCenter.storage.title'] });
    await list.getByText(fill(en['appCenter.storage.mapped'], { share: 'media', path: 'Greetings', access: en['appCenter.access.readWrite'] })).waitFor();
  });

  it('offers only read for a read-only request', async () => {
    await page.getByRole('button', { name: fill(en['appCenter.storage.mapLabel'], { storageId: 'photos' }) }).click();
    const dialog = page.getByRole('dialog', { name: fill(en['appCenter.storage.dialog'], { storageId: 'photos' }) });
    await dialog.getByRole('radio', { name: en['appCenter.access.read'] }).waitFor();
    expect(await dialog.getByRole('radio', { name: en['appCenter.access.readWrite'] }).count()).to.equal(0);
    await dialog.getByRole('button', { name: en['appCenter.common.cancel'] }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await mappingOf('photos')).to.equal(null);
  });

  it('unmaps only after confirming; Cancel keeps the mapping', async () => {
    const unmap = page.getByRole('button', { name: fill(en['appCenter.storage.removeLabel'], { storageId: 'greetings' }) });
    const dialog = page.getByRole('dialog', { name: fill(en['appCenter.storage.unmap.title'], { storageId: 'greetings' }) });
    await unmap.click();
    await dialog.getByText(fill(en['appCenter.storage.unmap.text'], { name: 'Hello', path: 'Greetings', share: 'media' })).waitFor();
    await dialog.getByRole('button', { name: en['appCenter.common.cancel'] }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await mappingOf('greetings')).to.not.equal(null);
    await unmap.click();
    await dialog.getByRole('button', { name: en['appCenter.storage.unmap.run'], exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await eventually(async () => (await mappingOf('greetings')) === null, 'the mapping removed');
    await page.getByRole('list', { name: en['appCenter.storage.title'] }).getByText(en['appCenter.storage.unmapped']).first().waitFor();
  });

  it('fits the folder picker at phone size in German', async () => {
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    const phone = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } });
    try {
      const p = await phone.newPage();
      await signInThroughPage(p, box.url, 'admin', adminPassword);
      await p.goto(`${box.url}${center}/installed/${appId}`);
      await p.getByRole('button', { name: fill(de['appCenter.storage.mapLabel'], { storageId: 'greetings' }) }).click();
      const dialog = p.getByRole('dialog', { name: fill(de['appCenter.storage.dialog'], { storageId: 'greetings' }) });
      await dialog.getByRole('button', { name: /Photos/ }).waitFor({ timeout: 15_000 });
      const offscreen = await p.evaluate(
        `[...document.querySelectorAll('dialog button, dialog select, dialog input')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5).map((el) => el.textContent)`,
      );
      expect(offscreen).to.deep.equal([]);
      await p.screenshot({ path: screenshotPath('app-center-map-folder-de-phone') });
    } finally {
      await phone.close();
      await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });
});
