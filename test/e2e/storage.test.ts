import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import de from '../../web/src/apps/storage-manager/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/storage-manager/i18n/en.json' with { type: 'json' };
import homesEn from '../../web/src/apps/control-panel/homes/i18n/en.json' with { type: 'json' };
import { assertBrowserPrerequisites, expectText, launchChromium, screenshotPath, signInThroughPage, webDir } from '../helpers/browser.ts';
import { adminPassword, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { ensureZfsFuse, LoopDisks, sh } from '../system/zfs-fixture.ts';

// Real ZFS (zfs-fuse) on loop devices of sparse files, as root, through the real daemon with
// storage changes applied; everything carries the test prefix and is destroyed in `after`.
const prefix = `cellarui${process.pid}`;
const poolName = `${prefix}p`;
const app = '/app/org.service.storage-manager';
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

describe('e2e: Storage Manager on zfs-fuse', function () {
  this.timeout(120_000);
  const disks = new LoopDisks(prefix);
  let box: TestDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  // Disks 0, 1 and 3 are blank and usable; 2 is too small and carries an ext4 file system.
  const small = 2;

  before(async () => {
    assertBrowserPrerequisites();
    await ensureZfsFuse();
    disks.pools.add(poolName);
    disks.add(2);
    disks.add(1, '48M');
    disks.add(1);
    sh(['mkfs.ext4', '-q', '-F', disks.loops[small]!]);
    box = await startTestDaemon(
      { webDir },
      {
        storage: {
          apply: true,
          includeLoopDevices: true,
          minDiskBytes: 64 * 1024 * 1024,
          mountRoot: path.join(disks.work, 'mnt'),
          importDirs: ['/dev'],
          scrubPollMs: 200,
        },
      },
    );
    browser = await launchChromium();
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    await signInThroughPage(page, box.url, 'admin', adminPassword);
  });

  after(async () => {
    await browser?.close();
    await box?.close();
    await disks.cleanup();
  });

  const open = async (route: string, language: 'en' | 'de' = 'en') => {
    await page.goto(`${box.url}${app}/${route}`);
    await page.getByRole('tablist', { name: (language === 'en' ? en : de)['storage.sections'] }).waitFor();
  };
  const diskItem = (i: number) => page.getByRole('listitem', { name: disks.name(i), exact: true });

  it('shows each disk with its verdict and every reason against it in words', async () => {
    await open('disks');
    await diskItem(0).waitFor();
    expect(await diskItem(0).textContent()).to.contain(en['storage.disks.usable']);
    const refused = diskItem(small);
    expect(await refused.textContent()).to.contain(en['storage.disks.refused']);
    const reasons = refused.getByRole('list', { name: fill(en['storage.disks.reasons'], { disk: disks.name(small) }) });
    const texts = (await reasons.getByRole('listitem').allTextContents()).map((s) => s.trim());
    expect(texts).to.include(fill(en['storage.disk.reason.tooSmall'], { size: '48 MiB', min: '64 MiB' }));
    expect(texts.some((s) => s.startsWith(en['storage.disk.reason.signature'].split('(')[0]!) && s.includes('ext4'))).to.equal(true, texts.join(' | '));
    await page.screenshot({ path: screenshotPath('storage-disks-en'), fullPage: true });
  });

  it('creates a mirror pool: exact commands in the preview, confirmation, progress bar, then the pool in the overview', async () => {
    await open('create');
    const refusedBox = page.getByRole('checkbox', { name: new RegExp(`^${disks.name(small)} `) });
    expect(await refusedBox.isDisabled()).to.equal(true);
    await page.getByRole('checkbox', { name: new RegExp(`^${disks.name(0)} `) }).check();
    await page.getByRole('checkbox', { name: new RegExp(`^${disks.name(1)} `) }).check();
    await page.getByRole('radio', { name: new RegExp(`^${en['storage.layout.mirror']} `) }).check();
    await page.getByLabel(en['storage.create.name'], { exact: true }).fill(poolName);
    await page.getByRole('button', { name: en['storage.create.preview'], exact: true }).click();

    const commands = page.getByLabel(en['storage.plan.commands']);
    await expectText(commands, `zpool create -m ${path.join(disks.work, 'mnt', poolName)} ${poolName} mirror ${disks.loops[0]} ${disks.loops[1]}`);
    expect(await page.getByText(/The plan is valid until .* \((9|10):\d\d left\)\./).isVisible()).to.equal(true);
    await page.screenshot({ path: screenshotPath('storage-create-preview-en'), fullPage: true });

    // Run asks first; the confirmation's own Run starts the job.
    await page.getByRole('button', { name: en['storage.create.run'], exact: true }).click();
    const dialog = page.getByRole('dialog', { name: en['storage.plan.confirmTitle'] });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: en['storage.create.run'] }).click();
    const bar = page.getByRole('progressbar', { name: en['storage.plan.running'] });
    await bar.waitFor({ timeout: 10_000 });
    await page.getByText(en['storage.plan.succeeded']).waitFor({ timeout: 60_000 });
    expect(await bar.getAttribute('aria-valuenow')).to.equal('100');
    expect(sh(['zpool', 'list', '-H', '-o', 'name', poolName]).trim()).to.equal(poolName);
    await page.screenshot({ path: screenshotPath('storage-create-done-en'), fullPage: true });

    await page.getByRole('button', { name: en['storage.create.toOverview'] }).click();
    const card = page.getByRole('list', { name: en['storage.overview.pools'] }).getByRole('button', { name: new RegExp(`^${poolName}`) });
    await card.waitFor();
    expect(await card.textContent()).to.contain(en['storage.state.ONLINE']);
    await page.screenshot({ path: screenshotPath('storage-overview-en'), fullPage: true });
  });

  it('shows the pool with its vdev tree, and the disk guard refusing a disk now in the pool', async () => {
    await open(`pools/${poolName}`);
    const tree = page.getByRole('list', { name: fill(en['storage.vdev.tree'], { pool: poolName }) });
    await tree.waitFor();
    const text = await tree.textContent();
    for (const loop of disks.loops.slice(0, 2)) expect(text).to.contain(loop.replace('/dev/', ''));
    expect(text).to.match(/mirror/i);
    await page.screenshot({ path: screenshotPath('storage-pool-en'), fullPage: true });

    await open('disks');
    await diskItem(0).waitFor();
    const reasons = await diskItem(0).getByRole('listitem').allTextContents();
    expect(reasons.map((s) => s.trim())).to.include(fill(en['storage.disk.reason.inPool'], { detail: poolName }));
  });

  it('says in words why the box refuses a plan: the pool name is taken', async () => {
    await open('create');
    await page.getByRole('checkbox', { name: new RegExp(`^${disks.name(3)} `) }).check();
    await page.getByRole('radio', { name: new RegExp(`^${en['storage.layout.stripe']} `) }).check();
    expect(await page.getByRole('note').textContent()).to.equal(en['storage.layout.stripe.warning']);
    await page.getByLabel(en['storage.create.name'], { exact: true }).fill(poolName);
    await page.getByRole('button', { name: en['storage.create.preview'], exact: true }).click();
    await expectText(page.getByRole('alert').filter({ hasText: poolName }), fill(en['error.storage.pool.exists'], { pool: poolName }));
    expect(await page.getByLabel(en['storage.plan.commands']).count()).to.equal(0);
    await page.screenshot({ path: screenshotPath('storage-refusal-en'), fullPage: true });
  });

  it("sets the new pool as the homes' pool with a default quota in the Control Panel's Homes section", async () => {
    await page.goto(`${box.url}/app/org.service.control-panel/homes`);
    await page.getByRole('heading', { name: homesEn['controlPanel.homes.title'], exact: true }).waitFor();
    await page.getByLabel(homesEn['controlPanel.homes.homePool']).selectOption(poolName);
    await page.getByRole('checkbox', { name: homesEn['controlPanel.homes.noDefaultQuota'] }).uncheck();
    await page.getByRole('spinbutton', { name: homesEn['controlPanel.homes.defaultQuota'] }).fill('2');
    await page.getByRole('button', { name: homesEn['controlPanel.homes.save'], exact: true }).click();
    await expectText(page.getByRole('status').filter({ hasText: homesEn['controlPanel.homes.saved'] }), homesEn['controlPanel.homes.saved']);
    const admin = await box.signIn();
    const overview = await admin.api.homes.overview();
    expect(overview).to.include({ homePool: poolName, defaultQuotaBytes: 2 * 1024 ** 3 });
    await page.screenshot({ path: screenshotPath('storage-homes-en'), fullPage: true });
  });

  it('speaks German: disks, the wizard and the overview', async () => {
    // A second administrator whose language is German, in a German browser.
    const admin = await box.signIn();
    await admin.api.users.create({ body: { username: 'verwalterin', displayName: 'Verwalterin', password: adminPassword, admin: true, language: 'de' } });
    await context.close();
    context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    await signInThroughPage(page, box.url, 'verwalterin', adminPassword);
    await open('disks', 'de');
    expect(await diskItem(small).textContent()).to.contain(de['storage.disks.refused']);
    expect(await diskItem(small).textContent()).to.contain(fill(de['storage.disk.reason.tooSmall'], { size: '48 MiB', min: '64 MiB' }));
    await page.screenshot({ path: screenshotPath('storage-disks-de'), fullPage: true });
    await open('create', 'de');
    await page.getByRole('heading', { name: de['storage.create.title'], exact: true }).waitFor();
    await page.getByRole('checkbox', { name: new RegExp(`^${disks.name(3)} `) }).check();
    await page.getByRole('radio', { name: new RegExp(`^${de['storage.layout.stripe']} `) }).check();
    await page.getByLabel(de['storage.create.name'], { exact: true }).fill(`${prefix}q`);
    await page.getByRole('button', { name: de['storage.create.preview'], exact: true }).click();
    await page.getByLabel(de['storage.plan.commands']).waitFor();
    await page.screenshot({ path: screenshotPath('storage-create-preview-de'), fullPage: true });
    await open('overview', 'de');
    const card = page.getByRole('list', { name: de['storage.overview.pools'] }).getByRole('button', { name: new RegExp(`^${poolName}`) });
    await card.getByText(de['storage.state.ONLINE']).waitFor();
    await page.screenshot({ path: screenshotPath('storage-overview-de'), fullPage: true });
  });
});
