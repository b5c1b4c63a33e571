import { expect } from 'chai';
import type { Page } from 'playwright-core';
import de from '../../web/src/apps/overview/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/overview/i18n/en.json' with { type: 'json' };
import storageEn from '../../web/src/apps/storage-manager/i18n/en.json' with { type: 'json' };
import { fill } from '../helpers/app-packages.ts';
import { screenshotPath, signInThroughPage } from '../helpers/browser.ts';
import { adminPassword } from '../helpers/daemon.ts';
import { startZfsBrowserBox, type ZfsBrowserBox } from '../helpers/zfs-pools.ts';
import { waitJob } from '../system/zfs-fixture.ts';

/** Overview answers "is my box well" on a real pool (zfs-fuse on a loop device, as root), at 1366 px in English and 390 px in German. */
describe('e2e: Overview says how the box is (zfs-fuse)', function () {
  this.timeout(180_000);
  let zbox: ZfsBrowserBox;
  let pool = '';
  let dataset = '';

  before(async () => {
    zbox = await startZfsBrowserBox('cellarov', 1);
    [pool] = zbox.pools as [string];
    const plan = await zbox.admin.api.storage.createSharePlan({ body: { kind: 'share.create', pool, name: 'Photos' } });
    expect((await waitJob(zbox.admin, await zbox.admin.api.storage.runPlan({ params: { planId: plan.planId } }))).state).to.equal('succeeded');
    const share = (await zbox.admin.api.shares.details()).find((s) => s.name === 'Photos')!;
    await zbox.admin.api.shares.setRestorePoints({ params: { shareId: share.id }, body: { enabled: true } });
    dataset = share.dataset!;
  });
  after(() => zbox?.close());

  async function overview(locale: 'en' | 'de', width: number, height: number): Promise<Page> {
    await zbox.box.daemon.db.query(`UPDATE users SET language = '${locale}' WHERE username = 'admin'`);
    const context = await zbox.browser.newContext({ locale, viewport: { width, height } });
    const page = await context.newPage();
    await signInThroughPage(page, zbox.box.url, 'admin', adminPassword);
    await page.goto(`${zbox.box.url}/app/org.service.overview`);
    return page;
  }

  it('shows each pool with health, free space and scrub, disks, alerts and updates, each with a way to the app that fixes it', async () => {
    const page = await overview('en', 1366, 820);
    try {
      const panel = page.getByRole('region', { name: en['overview.health.title'] });
      const pools = panel.getByRole('article', { name: en['overview.health.pools'] });
      const row = pools.getByRole('listitem').filter({ hasText: pool });
      await row.waitFor();
      const text = (await row.textContent())!;
      expect(text).to.contain(en['overview.health.healthy']).and.contain(en['overview.health.scrub.never']);
      expect(text).to.match(/free of .* \(\d+ % used\)/);
      const used = await row.getByRole('meter', { name: fill(en['overview.health.capacityOf'], { pool }) }).evaluate((m) => (m as HTMLMeterElement).value);
      expect(used).to.be.within(0, 100);

      const disks = panel.getByRole('article', { name: en['overview.health.disks'] });
      await disks.getByRole('button', { name: en['overview.health.openDisks'] }).waitFor();
      // Loop devices have no SMART: the card says so rather than a verdict.
      const diskTexts = await disks.getByRole('listitem').allTextContents();
      for (const t of diskTexts) if (!t.includes(en['overview.health.noDisks'])) expect(t).to.contain(en['overview.health.smart.notReported']);
      await panel.getByRole('article', { name: en['overview.health.alerts'] }).getByText(en['overview.health.noAlerts']).waitFor();
      const snapshots = panel.getByRole('article', { name: en['overview.health.snapshots'] }).getByRole('listitem').filter({ hasText: 'Photos' });
      await snapshots.getByText(en['overview.health.snapshots.none']).waitFor();
      // A development daemon is not a packaged box: updates do not apply, and the card says that.
      await panel.getByRole('article', { name: en['overview.health.updates'] }).getByText(en['overview.health.updates.notHere']).waitFor();

      // Graphs have a value axis in their unit and a time axis.
      const cpu = page.getByRole('figure').filter({ hasText: en['overview.cpu'] }).first();
      await cpu.getByText('100 %').waitFor();
      await cpu.getByText(en['overview.axis.now']).waitFor();
      await page.screenshot({ path: screenshotPath('overview-health-en'), fullPage: true });

      // A new restore point shows as the newest once the Overview is opened again.
      await zbox.admin.api.storage.createSnapshot({ body: { dataset } });
      await page.reload();
      await snapshots.getByText(/^Newest: /).waitFor();

      await panel
        .getByRole('article', { name: en['overview.health.pools'] })
        .getByRole('button', { name: fill(en['overview.health.openPool'], { pool }) })
        .click();
      await page.getByRole('tablist', { name: storageEn['storage.sections'] }).waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('fits a 390 px phone in German', async () => {
    const page = await overview('de', 390, 844);
    try {
      const panel = page.getByRole('region', { name: de['overview.health.title'] });
      const pools = panel.getByRole('article', { name: de['overview.health.pools'] });
      await pools.getByText(de['overview.health.healthy']).waitFor();
      await pools.getByText(/frei von .* % belegt/).waitFor();
      for (const card of await panel.getByRole('article').all()) {
        const box = (await card.boundingBox())!;
        expect(box.x + box.width, 'a card inside the 390 px window').to.be.at.most(390);
      }
      await page.screenshot({ path: screenshotPath('overview-health-phone-de'), fullPage: true });
    } finally {
      await page.context().close();
      await zbox.box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });
});
