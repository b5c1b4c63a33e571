import { chmodSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import de from '../../web/src/apps/control-panel/shares/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/control-panel/shares/i18n/en.json' with { type: 'json' };
import filesEn from '../../web/src/apps/files/i18n/en.json' with { type: 'json' };
import storageDe from '../../web/src/apps/storage-manager/i18n/de.json' with { type: 'json' };
import storageEn from '../../web/src/apps/storage-manager/i18n/en.json' with { type: 'json' };
import { fill } from '../helpers/app-packages.ts';
import { expectText, screenshotPath, signInThroughPage, startBrowserBox, type BrowserBox } from '../helpers/browser.ts';
import { adminPassword, type TestClient } from '../helpers/daemon.ts';
import { eventually } from '../helpers/desktop.ts';
import { createPool, loopStorage } from '../helpers/zfs-pools.ts';
import { accounts, FileServicesBox, smb } from '../system/file-services-fixture.ts';
import { ensureZfsFuse, LoopDisks, sh } from '../system/zfs-fixture.ts';

/**
 * A share on a real pool made and deleted in the Control Panel (zfs-fuse on a loop device, as root),
 * reached over SMB by an administrator through a real smbd whose configuration the daemon writes.
 * The administrator is a Cellar user named like the fixture's system account cfst-writer, whose
 * Samba password the fixture set: in development mode the daemon makes no system accounts itself.
 */
describe('e2e: shares on pools in the Control Panel, reached over SMB (zfs-fuse, smbd)', function () {
  this.timeout(180_000);
  const disks = new LoopDisks(`cellarsh${process.pid}`);
  const pool = `${disks.prefix}a`;
  const services = new FileServicesBox();
  let started: BrowserBox | undefined;
  let admin: TestClient;
  let context: BrowserContext;
  let page: Page;
  const cp = '/app/org.service.control-panel/shares';

  before(async () => {
    if (process.getuid?.() !== 0) throw new Error('this test needs root (zfs-fuse on loop devices, smbd, system accounts)');
    await ensureZfsFuse();
    await services.setUp();
    disks.add(1);
    started = await startBrowserBox({ daemon: { storage: loopStorage(disks), fileServices: { deployment: services.deployment() } } });
    admin = await started.box.signIn();
    await admin.api.users.create({ body: { username: accounts.writer, password: 'Writer-password-1', admin: true, smb: true } });
    context = await started.browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 820 }, permissions: ['clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
    await signInThroughPage(page, started.box.url, 'admin', adminPassword);
  });

  after(async () => {
    await started?.browser.close();
    await started?.box.close();
    await disks.cleanup();
    await services.tearDown();
  });

  it('Files with no share offers an administrator the way to make one, in the Control Panel', async () => {
    await page.goto(`${started!.box.url}/app/org.service.files`);
    await page.getByText(filesEn['files.shares.none']).waitFor();
    await page.getByRole('button', { name: filesEn['files.shares.make'] }).click();
    // The Control Panel opens at Shares with the new-share form.
    const form = page.getByRole('region', { name: en['controlPanel.shares.create.title'] });
    await form.waitFor();
    expect(await form.getByLabel(en['controlPanel.shares.name'], { exact: true }).isVisible()).to.equal(true);
  });

  it('creates a share on a pool with its preview, SMB and SFTP on, and shows its addresses with a copy button', async () => {
    await createPool(admin, disks, pool, 0);
    await page.goto(`${started!.box.url}${cp}`);
    await page.getByRole('button', { name: en['controlPanel.shares.create.open'], exact: true }).click();
    const form = page.getByRole('region', { name: en['controlPanel.shares.create.title'] });
    await form.getByLabel(en['controlPanel.shares.create.pool']).selectOption(pool);
    await form.getByLabel(en['controlPanel.shares.name'], { exact: true }).fill('Family');
    await form.getByLabel(en['controlPanel.shares.create.quota']).fill('0.05');
    for (const label of [en['controlPanel.shares.smb'], en['controlPanel.shares.sftp'], en['controlPanel.shares.restorePoints']]) {
      expect(await form.getByLabel(label).isChecked(), label).to.equal(true);
    }
    await form.getByRole('button', { name: en['controlPanel.shares.create.preview'] }).click();
    const quota = Math.round(0.05 * 1024 ** 3);
    await expectText(page.getByLabel(storageEn['storage.plan.commands']), `zfs create ${pool}/shares\nzfs create -o quota=${quota} ${pool}/shares/family`);
    await page.screenshot({ path: screenshotPath('shares-create-preview-en'), fullPage: true });

    await page.getByRole('button', { name: en['controlPanel.shares.create.run'], exact: true }).click();
    const dialog = page.getByRole('dialog', { name: storageEn['storage.plan.confirmTitle'] });
    await dialog.getByRole('button', { name: en['controlPanel.shares.create.run'] }).click();
    await page.getByText(fill(en['controlPanel.shares.create.done'], { name: 'Family' })).waitFor({ timeout: 60_000 });

    const share = (await admin.api.shares.details()).find((s) => s.name === 'Family')!;
    expect(share).to.include({ kind: 'dataset', dataset: `${pool}/shares/family`, smbEnabled: true, sftpEnabled: true, restorePoints: true });
    const host = (await admin.api.systemOverview.overview()).hostName;
    const addresses = page.getByRole('region', { name: en['controlPanel.shares.addresses'] });
    const windows = `\\\\${host}\\Family`;
    for (const address of [windows, `smb://${host}.local/Family`]) expect(await addresses.textContent()).to.contain(address);
    await addresses.getByRole('button', { name: fill(en['controlPanel.shares.copyAddress'], { address: windows }) }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(windows);
    await page.screenshot({ path: screenshotPath('shares-created-en'), fullPage: true });
  });

  it('an administrator writes a file into the new share over SMB', async () => {
    const share = (await admin.api.shares.details()).find((s) => s.name === 'Family')!;
    const folder = share.hostPath!;
    // The daemon's smb.conf names the share with the administrator among its valid users.
    await eventually(
      async () => readFileSync(services.smbConf, 'utf8'),
      (text) => text.includes('[Family]') && text.includes(`path = ${folder}`) && text.includes(accounts.writer),
      'the share in smb.conf',
    );
    // zfs-fuse has no POSIX ACLs: the daemon gives the share's group the dataset (group modes), nothing
    // is stood in for here. Only the test's own folders above it open to be walked, as a box's are.
    for (let dir = path.dirname(folder); dir !== path.dirname(disks.work); dir = path.dirname(dir)) chmodSync(dir, 0o755);
    const upload = path.join(services.root, 'hello.txt');
    sh(['sh', '-c', `printf 'hello from a laptop' > ${upload}`]);
    const put = await smb('Family', accounts.writer, `put ${upload} hello.txt`);
    expect(put.code, put.stdout + put.stderr).to.equal(0);
    expect(readFileSync(path.join(folder, 'hello.txt'), 'utf8')).to.equal('hello from a laptop');
  });

  it('the Files app writes into it as before, and the file it made is the granted users’ over SMB too', async () => {
    const share = (await admin.api.shares.details()).find((s) => s.name === 'Family')!;
    const res = await admin.request('PUT', `/api/files/${share.id}/content?path=from-files.txt`, {
      body: 'made in Files',
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(res.status, await res.clone().text()).to.be.oneOf([200, 201]);
    expect(readFileSync(path.join(share.hostPath!, 'from-files.txt'), 'utf8')).to.equal('made in Files');
    // The daemon made it as root; the share's group and modes come after a short quiet time.
    const upload = path.join(services.root, 'over.txt');
    sh(['sh', '-c', `printf 'changed over SMB' > ${upload}`]);
    await eventually(
      async () => (await smb('Family', accounts.writer, `put ${upload} from-files.txt`)).code,
      (code) => code === 0,
      'the Files app’s file written over SMB',
    );
    expect(readFileSync(path.join(share.hostPath!, 'from-files.txt'), 'utf8')).to.equal('changed over SMB');
  });

  it('deletes the share keeping its data, after a preview and a confirmation', async () => {
    const share = (await admin.api.shares.details()).find((s) => s.name === 'Family')!;
    await page.goto(`${started!.box.url}${cp}/${share.id}`);
    await page.getByRole('button', { name: en['controlPanel.shares.delete.open'], exact: true }).click();
    const panel = page.getByRole('region', { name: fill(en['controlPanel.shares.delete.title'], { name: 'Family' }) });
    expect(await panel.getByLabel(fill(en['controlPanel.shares.delete.keep'], { dataset: share.dataset! })).isChecked()).to.equal(true);
    await panel.getByRole('button', { name: en['controlPanel.shares.create.preview'] }).click();
    await page.getByText(fill(storageEn['storage.warning.share.data_kept'], { dataset: share.dataset! })).waitFor();
    await page.getByRole('button', { name: en['controlPanel.shares.delete.run'], exact: true }).click();
    await page
      .getByRole('dialog', { name: storageEn['storage.plan.confirmTitle'] })
      .getByRole('button', { name: en['controlPanel.shares.delete.run'] })
      .click();
    await page.getByText(fill(en['controlPanel.shares.delete.done'], { name: 'Family' })).waitFor({ timeout: 60_000 });
    expect((await admin.api.shares.details()).map((s) => s.name)).to.not.include('Family');
    expect(sh(['zfs', 'list', '-H', '-o', 'name', share.dataset!]).trim()).to.equal(share.dataset);
    expect(existsSync(path.join(share.hostPath!, 'hello.txt'))).to.equal(true);
  });

  it('at 390 px in German the new-share form fits the window and works by keyboard', async () => {
    const phone = await started!.browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    try {
      const p = await phone.newPage();
      // The language comes with the session (set here in the database: Users, Edit has no language yet).
      await started!.box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
      await signInThroughPage(p, started!.box.url, 'admin', adminPassword);
      await p.goto(`${started!.box.url}${cp}/new`);
      const form = p.getByRole('region', { name: de['controlPanel.shares.create.title'] });
      await form.waitFor();
      const name = form.getByLabel(de['controlPanel.shares.name'], { exact: true });
      await name.focus();
      await p.keyboard.type('Fotos');
      for (const control of [name, form.getByRole('button', { name: de['controlPanel.shares.create.preview'] })]) {
        const box = (await control.boundingBox())!;
        expect(box.x + box.width, 'inside the 390 px window').to.be.at.most(390);
      }
      await p.keyboard.press('Enter');
      await expectText(p.getByLabel(storageDe['storage.plan.commands']), `zfs create ${pool}/shares/fotos`);
      await p.screenshot({ path: screenshotPath('shares-create-phone-de'), fullPage: true });
    } finally {
      await started!.box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
      await phone.close();
    }
  });
});
