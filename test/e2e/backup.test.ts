import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import backupEn from '../../web/src/apps/control-panel/backup/i18n/en.json' with { type: 'json' };
import networkEn from '../../web/src/apps/control-panel/network/i18n/en.json' with { type: 'json' };
import type { Row } from '../../daemon/src/areas/backup-rows.ts';
import { readBackup, writeBackup } from '../../shared/src/backup/backup-file.ts';
import { fill } from '../helpers/app-packages.ts';
import { controlsPastViewport, openControlPanelSection, screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { example, installApp, storageApp } from '../helpers/storage-apps.ts';

describe('e2e: backup and restore in the Control Panel', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;
  let restarts = 0;

  before(async () => {
    ({ box, browser } = await startBrowserBox({ daemon: { restart: () => void restarts++ } }));
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
  });

  it('creates a backup, inspects it and restores the regional settings, at phone width and by keyboard', async () => {
    const api = (await box.signIn()).api;
    await api.system.setRegion({ body: { language: 'de', region: 'AT' } });
    const { context, page: p, panel } = await openControlPanelSection(browser, box, 'backup', { acceptDownloads: true });

    // Create: the strength hint follows the typing; the download starts once both fields agree.
    const password = panel.getByLabel(backupEn['controlPanel.backup.password'], { exact: true }).first();
    await password.fill('short');
    await panel.getByText('Strength: weak').waitFor();
    await password.fill('a long backup passphrase');
    await panel.getByText('Strength: strong').waitFor();
    await panel.getByLabel(backupEn['controlPanel.backup.repeat'], { exact: true }).fill('a long backup passphrase');
    const downloaded = p.waitForEvent('download');
    await panel.getByRole('button', { name: backupEn['controlPanel.backup.create.submit'] }).click();
    const download = await downloaded;
    const file = readFileSync((await download.path()) as string);
    expect(file.subarray(0, 8).toString('ascii')).to.equal('CELLARBK');
    // Named after the box (no name given at setup here: its host name), not the address in the browser.
    const { hostName } = await api.systemOverview.overview();
    expect(download.suggestedFilename()).to.equal(`${hostName}-${new Date().toISOString().slice(0, 10)}.cellarbackup`);
    expect(hostName).to.not.equal(new URL(box.url).hostname);

    await api.system.setRegion({ body: { language: 'en', region: null } });

    // Inspect: a wrong password is said so; the right one shows the summary.
    await panel
      .getByLabel(backupEn['controlPanel.backup.file'], { exact: true })
      .setInputFiles({ name: 'box.cellarbackup', mimeType: 'application/octet-stream', buffer: file });
    const openPassword = panel.getByLabel(backupEn['controlPanel.backup.password'], { exact: true }).nth(1);
    await openPassword.fill('not the password at all');
    await panel.getByRole('button', { name: backupEn['controlPanel.backup.inspect.submit'] }).click();
    await panel.getByRole('alert').filter({ hasText: backupEn['error.backup.password.wrong'] }).waitFor();
    await openPassword.fill('a long backup passphrase');
    await panel.getByRole('button', { name: backupEn['controlPanel.backup.inspect.submit'] }).click();
    const region = panel.getByRole('checkbox', { name: new RegExp(backupEn['controlPanel.backup.part.region']) });
    await region.waitFor();
    // One administrator, in the singular; and the certificates' part in words, not its message keys.
    await panel.getByText('1 administrator', { exact: false }).first().waitFor();
    expect(await panel.innerText()).to.not.match(/1 administrators|controlPanel\.backup\.count/);
    expect(await controlsPastViewport(p)).to.deep.equal([]);
    await p.screenshot({ path: screenshotPath('control-panel-backup-summary') });

    // Restore by keyboard: Space ticks the part, Enter asks, the dialog confirms.
    await region.focus();
    await p.keyboard.press('Space');
    await panel.getByRole('button', { name: backupEn['controlPanel.backup.restore.submit'] }).focus();
    await p.keyboard.press('Enter');
    const dialog = p.getByRole('dialog', { name: backupEn['controlPanel.backup.confirm.title'] });
    await dialog.waitFor();
    expect(await dialog.getByText(backupEn['controlPanel.backup.confirm.signOut']).count()).to.equal(0);
    await dialog.getByRole('button', { name: backupEn['controlPanel.backup.confirm.submit'] }).click();
    await panel.getByRole('status').filter({ hasText: backupEn['controlPanel.backup.restored'] }).waitFor();
    expect(await api.system.region()).to.deep.equal({ language: 'de', region: 'AT' });
    expect(restarts).to.equal(1);
    expect(await controlsPastViewport(p)).to.deep.equal([]);
    await context.close();
  });

  it("says why a crafted backup cannot be restored, and names the apps of another box's backup that this box has not installed", async () => {
    const password = 'a long backup passphrase';
    // Another box with an app installed makes the backup.
    const other = await startTestDaemon();
    let file: Buffer;
    try {
      const otherAdmin = await other.signIn();
      await installApp(otherAdmin, storageApp());
      file = Buffer.from(await (await otherAdmin.api.backup.create({ body: { password } })).arrayBuffer());
    } finally {
      await other.close();
    }
    const content = await readBackup(file, password);
    const users = (content.parts.users as { users: Row[] }).users;
    (users[0] as Row).username = 'sshd';
    const crafted = await writeBackup(content, password);

    const { context, panel } = await openControlPanelSection(browser, box, 'backup');
    const inspect = async (buffer: Buffer) => {
      await panel
        .getByLabel(backupEn['controlPanel.backup.file'], { exact: true })
        .setInputFiles({ name: 'box.cellarbackup', mimeType: 'application/octet-stream', buffer });
      await panel.getByLabel(backupEn['controlPanel.backup.password'], { exact: true }).nth(1).fill(password);
      await panel.getByRole('button', { name: backupEn['controlPanel.backup.inspect.submit'] }).click();
    };
    await inspect(crafted);
    await panel
      .getByRole('alert')
      .filter({ hasText: fill(backupEn['error.backup.account.reserved'], { name: 'sshd' }) })
      .waitFor();

    await inspect(file);
    const apps = panel.getByRole('checkbox', { name: new RegExp(backupEn['controlPanel.backup.part.apps']) });
    await panel.getByText(fill(backupEn['controlPanel.backup.notHere'], { names: example.name })).waitFor();
    await apps.check();
    await panel.getByRole('button', { name: backupEn['controlPanel.backup.restore.submit'] }).click();
    await panel
      .page()
      .getByRole('dialog', { name: backupEn['controlPanel.backup.confirm.title'] })
      .getByRole('button', { name: backupEn['controlPanel.backup.confirm.submit'] })
      .click();
    await panel.getByRole('status').filter({ hasText: backupEn['controlPanel.backup.restored'] }).waitFor();
    await panel.getByText(fill(backupEn['controlPanel.backup.skipped'], { names: example.name })).waitFor();
    await context.close();
  });

  it('restores the network settings as a change to keep: the confirmation says so, and the answer shows its countdown with Keep', async () => {
    const api = (await box.signIn()).api;
    const password = 'a long backup passphrase';
    // The backup holds one configuration; the box keeps another by the time it is restored (a development box applies neither).
    const keep = async (hostName: string) => {
      const configured = (await api.systemNetwork.network()).configured;
      const change = await api.systemNetwork.setNetwork({ body: { ...configured, hostName } });
      await api.systemNetwork.confirmNetwork({ params: { changeId: change.changeId } });
    };
    await keep('cellar-backed-up');
    const file = Buffer.from(await (await api.backup.create({ body: { password } })).arrayBuffer());
    await keep('cellar-later');

    const { context, page: p, panel } = await openControlPanelSection(browser, box, 'backup');
    await panel
      .getByLabel(backupEn['controlPanel.backup.file'], { exact: true })
      .setInputFiles({ name: 'box.cellarbackup', mimeType: 'application/octet-stream', buffer: file });
    await panel.getByLabel(backupEn['controlPanel.backup.password'], { exact: true }).nth(1).fill(password);
    await panel.getByRole('button', { name: backupEn['controlPanel.backup.inspect.submit'] }).click();
    await panel.getByRole('checkbox', { name: new RegExp(backupEn['controlPanel.backup.part.network']) }).check();
    await panel.getByText('1 name server', { exact: false }).first().waitFor();
    await panel.getByRole('button', { name: backupEn['controlPanel.backup.restore.submit'] }).click();
    const dialog = p.getByRole('dialog', { name: backupEn['controlPanel.backup.confirm.title'] });
    await dialog.getByText(backupEn['controlPanel.backup.confirm.network']).waitFor();
    await dialog.getByRole('button', { name: backupEn['controlPanel.backup.confirm.submit'] }).click();
    await panel.getByText(backupEn['controlPanel.backup.networkPending']).waitFor();
    const pending = panel.getByTestId('pending-change');
    await pending.getByRole('timer').waitFor();
    expect((await api.systemNetwork.network()).configured.hostName).to.equal('cellar-backed-up');
    expect(await controlsPastViewport(p)).to.deep.equal([]);
    await p.screenshot({ path: screenshotPath('control-panel-backup-network-pending') });
    await pending.getByRole('button', { name: networkEn['controlPanel.network.confirm'] }).click();
    await panel.getByRole('status').filter({ hasText: networkEn['controlPanel.network.confirmed'] }).waitFor();
    const state = await api.systemNetwork.network();
    expect(state.pending).to.equal(null);
    expect(state.configured.hostName).to.equal('cellar-backed-up');
    await context.close();
  });
});
