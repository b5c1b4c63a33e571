import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import en from '../../console/src/renderer/i18n/en.json' with { type: 'json' };
import type { KnownBox } from '../../console/src/node/box-store.ts';
import { BoxStore } from '../../console/src/node/box-store.ts';
import { ConsoleService } from '../../console/src/node/console-service.ts';
import { Discovery, type Announcement } from '../../console/src/node/discovery.ts';
import { expectText, launchChromium } from '../helpers/browser.ts';
import { openConsolePage, serveConsolePages, serviceBridge } from '../helpers/console-pages.ts';

export interface WizardInstall {
  /** The medium's HTTPS origin through the forwarded loopback port. */
  origin: string;
  /** The medium's serial console, where its screen shows the claim's line. */
  serialLog: string;
  /** The console's known boxes (its BoxStore file). */
  storeFile: string;
  disk: string;
  boxName: string;
  username: string;
  password: string;
  log: (line: string) => void;
}

/**
 * Installs through the console's installer wizard in Chromium, as the owner does: the console's
 * pages with its Node side in this process. QEMU's user network carries no multicast, so the
 * medium's mDNS announcement is given to the console's discovery as the medium makes it
 * (`_cellar-installer._tcp`, https, at the forwarded port). Answers the box the console kept, with
 * the installed root it pinned.
 */
export async function installWithWizard(w: WizardInstall): Promise<KnownBox> {
  const { hostname, port } = new URL(w.origin);
  const announcement: Announcement = {
    key: 'vm-medium',
    name: 'cellar-installer',
    host: hostname,
    port: Number(port),
    addresses: [hostname],
    mode: 'installer',
    installId: null,
    version: null,
    scheme: 'https',
  };
  const store = new BoxStore(w.storeFile);
  const discovery = new Discovery({ browser: { start: (onUp) => (onUp(announcement), () => {}) }, known: () => store.list() });
  const service = new ConsoleService({ store, discovery });
  // As the console's main process does at its start (console/src/main/app.ts).
  discovery.start();
  const pages = await serveConsolePages();
  const browser = await launchChromium();
  try {
    const page = await openConsolePage(browser, pages.url, serviceBridge(service));
    const card = page.locator('li.card').filter({ hasText: en['boxes.mode.installer'] });
    await card.waitFor({ timeout: 60_000 });
    await card.getByRole('button', { name: en['boxes.install'] }).click();
    await page.getByRole('button', { name: en['wizard.claim.submit'] }).click();
    // The console's line against the line on the box's screen (its serial console).
    const line = /code \d{3} \d{3} · key [0-9A-F]{4}( [0-9A-F]{4}){4}/;
    const shown = page.getByRole('status').filter({ hasText: line });
    await shown.waitFor({ timeout: 60_000 });
    const consoleLine = line.exec((await shown.textContent()) ?? '')?.[0];
    let screenLine: string | undefined;
    for (const deadline = Date.now() + 120_000; screenLine !== consoleLine && Date.now() < deadline; await new Promise((r) => setTimeout(r, 2000)))
      screenLine = [...readFileSync(w.serialLog, 'utf8').matchAll(new RegExp(line, 'g'))].at(-1)?.[0];
    expect(screenLine, 'the line on the medium’s screen').to.equal(consoleLine);
    await page.getByRole('button', { name: en['wizard.claim.confirm'] }).click();

    await page.locator(`input[type=radio][value="${w.disk}"]`).check();
    await page.getByRole('button', { name: en['wizard.next'] }).click();
    // The medium's own network (DHCP of QEMU's user network) is kept: its test would need the package registry.
    await page.getByRole('button', { name: en['wizard.next'] }).click();
    await page.getByLabel(en['wizard.settings.admin'], { exact: true }).fill(w.username);
    await page.getByLabel(en['wizard.settings.password'], { exact: true }).fill(w.password);
    await page.getByLabel(en['wizard.settings.boxName'], { exact: true }).fill(w.boxName);
    await page.getByLabel(en['wizard.settings.fileSystem'], { exact: true }).selectOption('ext4');
    await page.getByLabel(en['wizard.settings.boxName'], { exact: true }).press('Enter');
    await page.getByRole('button', { name: en['wizard.install.submit'] }).click();
    await page.getByRole('dialog').getByRole('button', { name: en['wizard.install.submit'] }).click();

    const started = Date.now();
    const done = page.getByRole('status').filter({ hasText: en['wizard.install.done'] });
    const failed = page.getByRole('alert').filter({ hasText: en['wizard.install.failed'].replace('{reason}', '').trim() });
    for (const deadline = Date.now() + 30 * 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 2000)))
      if ((await done.count()) > 0 || (await failed.count()) > 0) break;
    expect(await failed.count(), (await failed.allTextContents()).join()).to.equal(0);
    await expectText(done, en['wizard.install.done']);
    w.log(`the wizard installed after ${Math.round((Date.now() - started) / 1000)} s`);
    const kept = store.list().find((b) => b.name === w.boxName);
    expect(kept?.pin?.pem, JSON.stringify(store.list())).to.contain('BEGIN CERTIFICATE');
    await expectText(page.locator('p.fingerprint').last(), en['wizard.install.rootPinned'].replace('{fingerprint}', kept!.pin!.sha256));
    return kept!;
  } finally {
    await browser.close();
    pages.server.close();
  }
}
