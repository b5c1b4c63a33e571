import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import en from '../../web/src/apps/control-panel/certificates/i18n/en.json' with { type: 'json' };
import { controlsPastViewport, openControlPanelSection, screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import type { TestDaemon } from '../helpers/daemon.ts';

describe('e2e: Control Panel, Certificates, at phone size', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
  });
  after(() => stopBrowserBox({ box, browser }));

  it('edits the box names, issues a certificate with a one-time key and removes it after a confirmation', async () => {
    const { context, page, panel } = await openControlPanelSection(browser, box, 'certificates', { acceptDownloads: true });
    await panel.getByRole('heading', { name: en['controlPanel.certificates.authority'] }).waitFor({ timeout: 20_000 });
    expect(await panel.getByRole('link', { name: en['controlPanel.certificates.downloadRoot'] }).getAttribute('href')).to.equal('/api/system/tls/root-ca.crt');
    expect(await controlsPastViewport(page)).to.deep.equal([]);

    // A name outside the scope is named in the answer; by keyboard, Save is reached and pressed with Enter.
    const extra = panel.getByLabel(en['controlPanel.certificates.extraNames']);
    await extra.fill('www.example.com');
    await panel.getByRole('button', { name: en['controlPanel.certificates.saveNames'] }).focus();
    await page.keyboard.press('Enter');
    await panel.getByRole('alert').filter({ hasText: "www.example.com lies outside the authority's scope." }).waitFor();
    await extra.fill('files.local');
    await panel.getByRole('button', { name: en['controlPanel.certificates.saveNames'] }).click();
    await panel.getByRole('status').filter({ hasText: en['controlPanel.certificates.namesSaved'] }).waitFor();
    await panel
      .getByText(/files\.local/)
      .first()
      .waitFor();

    await panel.getByLabel(en['controlPanel.certificates.issueNames']).fill('camera.local 192.168.1.40');
    await panel.getByRole('button', { name: en['controlPanel.certificates.issue'] }).click();
    const dialog = page.getByRole('dialog', { name: en['controlPanel.certificates.issuedTitle'] });
    await dialog.waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('link', { name: en['controlPanel.certificates.downloadKey'] }).click(),
    ]);
    expect(readFileSync((await download.path())!, 'utf8')).to.match(/^-----BEGIN PRIVATE KEY-----/);
    await page.screenshot({ path: screenshotPath('control-panel-certificates-issued') });
    await dialog.getByRole('button', { name: en['controlPanel.certificates.done'] }).click();
    const item = panel.getByRole('listitem').filter({ hasText: 'camera.local, 192.168.1.40' });
    await item.waitFor();
    expect(await controlsPastViewport(page)).to.deep.equal([]);

    await item.getByRole('button', { name: en['controlPanel.certificates.remove'] }).click();
    const confirm = page.getByRole('dialog', { name: en['controlPanel.certificates.removeIssuedTitle'] });
    await confirm.waitFor();
    expect((await (await box.signIn()).api.tls.settings()).issued).to.have.length(1);
    await confirm.getByRole('button', { name: en['controlPanel.certificates.remove'] }).click();
    await panel.getByText(en['controlPanel.certificates.noneIssued']).waitFor();
    expect((await (await box.signIn()).api.tls.settings()).issued).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('control-panel-certificates'), fullPage: true });
    await context.close();
  });
});
