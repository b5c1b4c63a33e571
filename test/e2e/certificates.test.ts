import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import en from '../../web/src/apps/control-panel/certificates/i18n/en.json' with { type: 'json' };
import { controlsPastViewport, openControlPanelSection, screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import type { TestDaemon } from '../helpers/daemon.ts';
import { TlsStore } from '../../daemon/src/areas/tls/tls-store.ts';

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

    // Revoked after a confirmation: marked so in the list, on the box's revocation list.
    await item.getByRole('button', { name: en['controlPanel.certificates.revoke'] }).click();
    const revoke = page.getByRole('dialog', { name: en['controlPanel.certificates.revokeTitle'] });
    await revoke.getByRole('button', { name: en['controlPanel.certificates.revoke'] }).click();
    await item.getByText(en['controlPanel.certificates.revokedOn'].replace('{date}', '')).waitFor();
    expect(await item.getByRole('button', { name: en['controlPanel.certificates.revoke'] }).count()).to.equal(0);
    expect((await (await box.signIn()).api.tls.settings()).issued[0]?.revokedAt).to.be.a('string');

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

  it('warns to trust again after the box replaced an authority of the old kind, naming the old root', async () => {
    const store = new TlsStore(path.join(box.dataDir, 'tls'), path.join(box.dataDir, 'tls-secret'));
    const previousRootFingerprint = 'AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99';
    store.writeSettings({ ...store.settings(), replacedAuthority: { replacedAt: new Date().toISOString(), previousRootFingerprint } });
    const { context, page, panel } = await openControlPanelSection(browser, box, 'certificates');
    const warning = panel.getByTestId('authority-replaced');
    await warning.waitFor({ timeout: 20_000 });
    const [before, after] = en['controlPanel.certificates.replacedOld'].split('{fingerprint}') as [string, string];
    const text = await warning.innerText();
    expect(text).to.include(previousRootFingerprint).and.include(after);
    expect(text).to.include(before.split('{date}')[1]!.trim());
    expect(await controlsPastViewport(page)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('control-panel-certificates-replaced') });
    await context.close();
  });
});
