import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import en from '../../web/src/apps/control-panel/homes/i18n/en.json' with { type: 'json' };
import { gbToBytes } from '../../web/src/lib/quota.ts';
import { fill } from '../helpers/app-packages.ts';
import { screenshotPath, signInThroughPage } from '../helpers/browser.ts';
import { adminPassword } from '../helpers/daemon.ts';
import { eventually } from '../helpers/desktop.ts';
import { startZfsBrowserBox, type ZfsBrowserBox } from '../helpers/zfs-pools.ts';
import { sh, waitJob, zfsGet } from '../system/zfs-fixture.ts';

const mib = 1024 * 1024;
const datasetExists = (name: string) => {
  try {
    sh(['zfs', 'list', '-H', '-o', 'name', name]);
    return true;
  } catch {
    return false;
  }
};

// The Control Panel's Homes section against real home datasets: zfs-fuse on two loop devices, as root.
describe('e2e: home folders in the Control Panel (zfs-fuse)', function () {
  this.timeout(180_000);
  let zbox: ZfsBrowserBox;
  let context: BrowserContext;
  let page: Page;
  let poolA = '';
  let poolB = '';
  let archive = { id: 0, root: '' };

  before(async () => {
    zbox = await startZfsBrowserBox('cellarhm', 2);
    [poolA, poolB] = zbox.pools as [string, string];
    const { admin } = zbox;
    await admin.api.homes.settings({ body: { defaultQuotaBytes: 16 * mib, homePool: poolA } });
    await admin.api.users.create({ body: { username: 'hanna', password: 'Hanna-password-1' } });
    const hanna = (await admin.api.users.list()).find((u) => u.username === 'hanna')!;
    writeFileSync(path.join(hanna.home!, 'diary.txt'), 'dear diary');
    const plan = await admin.api.storage.createSharePlan({ body: { kind: 'share.create', pool: poolB, name: 'Archive' } });
    expect((await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: plan.planId } }))).state).to.equal('succeeded');
    const share = (await admin.api.shares.list()).find((s) => s.name === 'Archive')!;
    archive = { id: share.id, root: share.hostPath! };
    context = await zbox.browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await signInThroughPage(page, zbox.box.url, 'admin', adminPassword);
  });

  after(async () => {
    await context?.close();
    await zbox?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await page.screenshot({ path: screenshotPath('control-panel-homes-failed') });
  });

  const row = (user: string) => page.getByRole('row').filter({ hasText: user });
  const dialog = (title: string) => page.getByRole('dialog', { name: title });

  async function openHomes(): Promise<void> {
    await page.goto(`${zbox.box.url}/app/org.service.control-panel/homes`);
    await page.getByRole('heading', { name: en['controlPanel.homes.title'] }).waitFor();
  }

  it('sets a home’s own quota and returns it to the default', async () => {
    await openHomes();
    await row('hanna').getByRole('button', { name: en['controlPanel.homes.setQuota'] }).click();
    const quota = dialog(fill(en['controlPanel.homes.quotaTitle'], { user: 'hanna' }));
    await quota.getByLabel(en['controlPanel.homes.quota.setOwn']).check();
    await quota.getByLabel(en['controlPanel.homes.quota.amount']).fill('0.5');
    await quota.getByRole('button', { name: en['controlPanel.homes.save'] }).click();
    await quota.waitFor({ state: 'detached' });
    expect(zfsGet('refquota', `${poolA}/homes/hanna`)).to.equal(String(gbToBytes(0.5)));
    await row('hanna').getByText(`(${en['controlPanel.homes.quota.own']})`).waitFor();

    await row('hanna').getByRole('button', { name: en['controlPanel.homes.setQuota'] }).click();
    expect(await quota.getByLabel(en['controlPanel.homes.quota.amount']).inputValue()).to.equal('0.5');
    // The label names the default as formatted for the locale: match its words before the value.
    await quota.getByRole('radio', { name: en['controlPanel.homes.quota.useDefault'].split(' (')[0] }).check();
    await quota.getByRole('button', { name: en['controlPanel.homes.save'] }).click();
    await quota.waitFor({ state: 'detached' });
    expect(zfsGet('refquota', `${poolA}/homes/hanna`)).to.equal(String(16 * mib));
    await row('hanna').getByText(`(${en['controlPanel.homes.quota.fromDefault']})`).waitFor();
  });

  it('moves every home to another pool after its confirmation, keeping the files', async () => {
    await page.getByLabel(en['controlPanel.homes.moveTo']).selectOption(poolB);
    await page.getByRole('button', { name: en['controlPanel.homes.move'] }).click();
    const confirm = dialog(en['controlPanel.homes.moveConfirmTitle']);
    await confirm.getByText(fill(en['controlPanel.homes.moveConfirmBody'], { count: 1, pool: poolB })).waitFor();
    await confirm.getByRole('button', { name: en['controlPanel.homes.move'] }).click();
    await page.getByText(fill(en['controlPanel.homes.moved'], { pool: poolB })).waitFor({ timeout: 60_000 });
    expect(readFileSync(path.join(zbox.disks.work, 'mnt', poolB, 'homes', 'hanna', 'files', 'diary.txt'), 'utf8')).to.equal('dear diary');
    expect(datasetExists(`${poolA}/homes/hanna`)).to.equal(false);
    await eventually(
      () => row('hanna').textContent(),
      (text) => text?.includes(poolB) === true,
      'the home listed on the new pool',
    );
    await page.screenshot({ path: screenshotPath('control-panel-homes-en') });
  });

  it('releases a deleted user’s home into a share', async () => {
    const { admin } = zbox;
    const hanna = (await admin.api.users.list()).find((u) => u.username === 'hanna')!;
    await admin.api.users.remove({ params: { userId: hanna.id }, query: {} });
    const folder = `hanna.deleted-${hanna.uid}`;
    await openHomes();
    await row(folder).getByRole('button', { name: en['controlPanel.homes.release'] }).click();
    const release = dialog(fill(en['controlPanel.homes.releaseTitle'], { folder }));
    await release.getByLabel(en['controlPanel.homes.releaseShare']).selectOption(String(archive.id));
    await release.getByRole('button', { name: en['controlPanel.homes.release'] }).click();
    await release.waitFor({ state: 'detached', timeout: 60_000 });
    expect(readFileSync(path.join(archive.root, folder, 'diary.txt'), 'utf8')).to.equal('dear diary');
    expect(datasetExists(`${poolB}/homes/${folder}`)).to.equal(false);
    await page.getByText(en['controlPanel.homes.none']).waitFor();
  });

  it('deletes a deleted user’s home only once its folder name is typed', async () => {
    const { admin } = zbox;
    const ivo = await admin.api.users.create({ body: { username: 'ivo', password: 'Ivo-password-12' } });
    await admin.api.users.remove({ params: { userId: ivo.id }, query: {} });
    const folder = `ivo.deleted-${ivo.uid}`;
    expect(datasetExists(`${poolB}/homes/${folder}`)).to.equal(true);
    await openHomes();
    await row(folder).getByRole('button', { name: en['controlPanel.homes.delete'] }).click();
    const remove = dialog(fill(en['controlPanel.homes.deleteTitle'], { folder }));
    const submit = remove.getByRole('button', { name: en['controlPanel.homes.delete'] });
    const typed = remove.getByLabel(fill(en['controlPanel.homes.deleteConfirm'], { folder }));
    expect(await submit.isDisabled()).to.equal(true);
    await typed.fill('ivo');
    expect(await submit.isDisabled()).to.equal(true);
    // Enter in the field does not get past the check either.
    await typed.press('Enter');
    expect(datasetExists(`${poolB}/homes/${folder}`)).to.equal(true);
    await typed.fill(folder);
    await submit.click();
    await remove.waitFor({ state: 'detached' });
    expect(datasetExists(`${poolB}/homes/${folder}`)).to.equal(false);
    expect(existsSync(path.join(zbox.disks.work, 'mnt', poolB, 'homes', folder))).to.equal(false);
    expect((await admin.api.homes.overview()).homes).to.deep.equal([]);
    await page.getByText(en['controlPanel.homes.none']).waitFor();
  });
});
