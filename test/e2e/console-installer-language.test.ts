import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { InstallerOptions } from '../../shared/src/api/installer/wizard.ts';
import { claimHeader } from '../../shared/src/api/installer/installer.ts';
import { BoxStore } from '../../console/src/node/box-store.ts';
import { ConsoleService } from '../../console/src/node/console-service.ts';
import { Discovery } from '../../console/src/node/discovery.ts';
import de from '../../console/src/renderer/i18n/de.json' with { type: 'json' };
import en from '../../console/src/renderer/i18n/en.json' with { type: 'json' };
import { assertChromium, expectText, launchChromium, screenshotPath } from '../helpers/browser.ts';
import { englishShown, openConsolePage, overflowScript, serveConsolePages, serviceBridge } from '../helpers/console-pages.ts';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';

/**
 * The installer wizard switching language after a refusal: a real installer-mode daemon (no host
 * effects, no announcement of its own) whose claim another console holds. The box list hears of it
 * through an announcement handed to discovery, as mDNS would (loopback carries no multicast).
 */
describe('e2e: console installer wizard says a refusal in the language chosen after it', function () {
  this.timeout(120_000);
  let dir: string;
  let box: TestDaemon;
  let pages: { url: string; server: Server };
  let browser: Browser;
  let page: Page;
  let now = Date.now();
  let refused: InstallerOptions['disks'] = [];
  const lifetimeMs = 60_000;

  before(async () => {
    assertChromium();
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-console-wizard-lang-'));
    const image = path.join(dir, 'system.tar');
    writeFileSync(image, '');
    box = await startTestDaemon(
      { mode: 'installer', installerImage: image },
      {
        clock: { now: () => now },
        installer: { apply: false, reboot: false, mdns: false, claimLifetimeMs: lifetimeMs },
      },
    );
    const port = Number(new URL(box.url).port);
    const store = new BoxStore(path.join(dir, 'boxes.json'));
    const announcement = {
      key: 'newbox',
      name: 'newbox',
      host: 'newbox.local',
      port,
      addresses: ['127.0.0.1'],
      mode: 'installer' as const,
      installId: null,
      version: null,
      scheme: 'https' as const,
    };
    const discovery = new Discovery({ browser: { start: (up) => (up(announcement), () => {}) }, known: () => store.list() });
    discovery.start();
    pages = await serveConsolePages();
    browser = await launchChromium();
    page = await openConsolePage(browser, pages.url, serviceBridge(new ConsoleService({ store, discovery })));
  });
  after(async () => {
    await browser?.close();
    pages?.server.close();
    await box?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("shows the box's refusal of a claim in English, then in German after switching", async () => {
    // Another console holds the claim and reads the disks the box offers.
    const other = box.client();
    const { claimExpiresAt, claimSecret } = await other.api.installer.claim();
    refused = (await other.api.installer.options({ headers: { [claimHeader]: claimSecret! } })).disks.filter((d) => !d.usable);
    const card = page.locator('li.card').filter({ hasText: 'newbox' });
    await card.getByRole('button', { name: en['boxes.install'] }).click();
    await page.getByRole('button', { name: en['wizard.claim.submit'] }).press('Enter');
    const alert = page.locator('.card > .ui-error[role=alert]');
    await expectText(alert, en['error.installer.claim.taken'].replace('{expiresAt}', claimExpiresAt!));
    expect(await page.getByText(en['error.code'].replace('{code}', 'installer.claim.taken')).count()).to.equal(1);

    await page.getByLabel(en['app.language']).selectOption('de');
    await expectText(page.getByRole('heading', { level: 2 }), de['wizard.title'].replace('{name}', 'newbox'));
    await expectText(alert, de['error.installer.claim.taken'].replace('{expiresAt}', claimExpiresAt!));
    expect(await page.getByText(de['error.code'].replace('{code}', 'installer.claim.taken')).count()).to.equal(1);
    expect(await englishShown(page, en, de, ['app.', 'nav.', 'wizard.', 'trust.cancel', 'error.'])).to.deep.equal([]);
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('console-wizard-refused-de-390'), fullPage: true });
  });

  it("says why the box refuses a disk in the language shown, the guard's details kept", async () => {
    // The machine's own system disk is always among the refused ones.
    expect(refused.map((d) => d.reasons.map((r) => r.reason)).flat()).to.include('systemDisk');
    now += lifetimeMs + 1;
    await page.getByRole('button', { name: de['wizard.claim.submit'] }).press('Enter');
    await page.getByRole('button', { name: de['wizard.claim.confirm'] }).click();
    await page.getByRole('radio').first().waitFor();
    const hint = (name: string) => page.locator('label.ui-check', { has: page.locator(`input[value="${name}"]`) }).locator('xpath=following-sibling::p[1]');
    const said = (words: Record<string, string>, reason: InstallerOptions['disks'][number]['reasons'][number]) => {
      const sizes = /^(\d+) bytes, at least (\d+)/.exec(reason.detail);
      const gb = (n: string) => `${Math.round(Number(n) / 1e9)} GB`;
      const text = words[`wizard.disks.reason.${reason.reason}`]!;
      return reason.reason === 'tooSmall' && sizes
        ? text.replace('{size}', gb(sizes[1]!)).replace('{min}', gb(sizes[2]!))
        : text.replace('{detail}', reason.detail);
    };
    for (const words of [de, en]) {
      if (words === en) await page.getByLabel(de['app.language']).selectOption('en');
      for (const disk of refused)
        await expectText(hint(disk.name), words['wizard.disks.refused'].replace('{reason}', disk.reasons.map((r) => said(words, r)).join(', ')));
    }
    expect(await page.evaluate(overflowScript)).to.deep.equal([]);
  });
});
