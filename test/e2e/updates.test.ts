import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import updatesEn from '../../web/src/apps/control-panel/updates/i18n/en.json' with { type: 'json' };
import { debianArchitecture } from '../../daemon/src/areas/updates/signed-release.ts';
import { controlsPastViewport, openControlPanelSection, screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import type { TestDaemon } from '../helpers/daemon.ts';
import { bundleOf, buildDeb, indexFor, serveFolder, TestSigner, writeRelease } from '../helpers/update-channel.ts';

/**
 * The Control Panel's Updates section on a development daemon with a signed channel on loopback:
 * updates do not apply here (install and restore need the root system test's Debian root on ZFS),
 * but checking, uploading with its refusals, discarding and the settings all run for real.
 */
describe('e2e: updates in the Control Panel', function () {
  this.timeout(120_000);
  const arch = debianArchitecture();
  let work: string;
  let signer: TestSigner;
  let channel: Server;
  let box: TestDaemon;
  let browser: Browser;

  const bundle = (version: string, signed: boolean): Buffer => {
    const dir = path.join(work, `b-${version}-${signed}`);
    const deb = buildDeb(dir, { name: 'cellar', version, architecture: arch });
    writeRelease(path.join(dir, 'r'), signed ? signer : null, indexFor(version, [{ file: deb, architecture: arch }]), [deb]);
    return bundleOf(path.join(dir, 'r'), path.join(dir, 'b.update'));
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cellar-e2e-updates-'));
    signer = new TestSigner(work);
    const deb = buildDeb(path.join(work, 'channel-build'), { name: 'cellar', version: '9.2.0', architecture: arch });
    writeRelease(path.join(work, 'channels/stable'), signer, indexFor('9.2.0', [{ file: deb, architecture: arch }]), [deb]);
    const served = await serveFolder(path.join(work, 'channels'));
    channel = served.server;
    ({ box, browser } = await startBrowserBox({ config: { trustedKeysFile: signer.keyFile }, daemon: { updates: { channelUrl: served.url } } }));
  });
  after(async () => {
    await stopBrowserBox({ box, browser });
    channel?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('checks, refuses an unsigned file, keeps a signed one until discarded and saves the settings, at phone width and by keyboard', async () => {
    const { context, page: p, panel } = await openControlPanelSection(browser, box, 'updates');
    await panel.getByText(updatesEn['controlPanel.updates.notApplicable.development']).waitFor();
    await panel.getByText(updatesEn['controlPanel.updates.never']).waitFor();

    const check = panel.getByRole('button', { name: updatesEn['controlPanel.updates.check'] });
    await check.focus();
    await p.keyboard.press('Enter');
    await panel.getByText('Version 9.2.0 is available.').waitFor();

    const file = panel.getByLabel(updatesEn['controlPanel.updates.upload'], { exact: true });
    const send = panel.getByRole('button', { name: updatesEn['controlPanel.updates.uploadSubmit'] });
    await file.setInputFiles({ name: 'unsigned.update', mimeType: 'application/x-tar', buffer: bundle('9.1.0', false) });
    await send.click();
    await panel.getByRole('alert').filter({ hasText: updatesEn['error.system.update.unsigned.reason.missing'] }).waitFor();
    await file.setInputFiles({ name: 'cellar-9.1.0.update', mimeType: 'application/x-tar', buffer: bundle('9.1.0', true) });
    await send.click();
    await panel.getByTestId('uploaded').filter({ hasText: 'Waiting: version 9.1.0' }).waitFor();
    expect((await (await box.signIn()).api.updates.status()).upload?.version).to.equal('9.1.0');
    expect(await controlsPastViewport(p)).to.deep.equal([]);
    await p.screenshot({ path: screenshotPath('control-panel-updates'), fullPage: true });

    await panel.getByRole('button', { name: updatesEn['controlPanel.updates.discard'] }).focus();
    await p.keyboard.press('Enter');
    await panel.getByTestId('uploaded').waitFor({ state: 'detached' });

    await panel.getByLabel(updatesEn['controlPanel.updates.channel']).selectOption('beta');
    await panel.getByLabel(updatesEn['controlPanel.updates.automaticSecurity']).check();
    await panel.getByRole('button', { name: updatesEn['controlPanel.updates.save'] }).click();
    await panel.getByRole('status').filter({ hasText: updatesEn['controlPanel.updates.saved'] }).waitFor();
    const settings = (await (await box.signIn()).api.updates.status()).settings;
    expect(settings).to.deep.equal({ channel: 'beta', checkTime: '03:00', automaticSecurity: true });
    expect(await controlsPastViewport(p)).to.deep.equal([]);
    await context.close();
  });
});
