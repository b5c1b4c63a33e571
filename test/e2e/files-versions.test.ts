import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import en from '../../web/src/apps/files/versions/i18n/en.json' with { type: 'json' };
import { fill } from '../helpers/app-packages.ts';
import { screenshotPath, signInThroughPage } from '../helpers/browser.ts';
import { adminPassword } from '../helpers/daemon.ts';
import { eventually } from '../helpers/desktop.ts';
import { startZfsBrowserBox, type ZfsBrowserBox } from '../helpers/zfs-pools.ts';
import { waitJob } from '../system/zfs-fixture.ts';

// The Files app's versions panel against real snapshots: zfs-fuse on a loop device, as root.
describe('e2e: earlier versions of a file in the Files app (zfs-fuse)', function () {
  this.timeout(180_000);
  let zbox: ZfsBrowserBox;
  let context: BrowserContext;
  let page: Page;
  let shareId = 0;
  let root = '';

  before(async () => {
    zbox = await startZfsBrowserBox('cellarfv', 1);
    const { admin } = zbox;
    const plan = await admin.api.storage.createSharePlan({ body: { kind: 'share.create', pool: zbox.pools[0]!, name: 'Docs' } });
    expect((await waitJob(admin, await admin.api.storage.runPlan({ params: { planId: plan.planId } }))).state).to.equal('succeeded');
    const share = (await admin.api.shares.list()).find((s) => s.name === 'Docs')!;
    shareId = share.id;
    root = share.hostPath!;
    // Two snapshots with two contents a minute apart, then the current content.
    const dataset = `${zbox.pools[0]}/shares/docs`;
    writeFileSync(path.join(root, 'notes.txt'), 'version one');
    await admin.api.storage.createSnapshot({ body: { dataset } });
    zbox.advance(60_000);
    writeFileSync(path.join(root, 'notes.txt'), 'version two, longer');
    await admin.api.storage.createSnapshot({ body: { dataset } });
    zbox.advance(60_000);
    writeFileSync(path.join(root, 'notes.txt'), 'now');
    context = await zbox.browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await signInThroughPage(page, zbox.box.url, 'admin', adminPassword);
  });

  after(async () => {
    await context?.close();
    await zbox?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await page.screenshot({ path: screenshotPath('files-versions-failed') });
  });

  const panel = () => page.getByRole('dialog', { name: fill(en['files.versions.title'], { name: 'notes.txt' }) });
  const versions = () => panel().getByRole('list', { name: en['files.versions.list'] }).getByRole('listitem');

  it('shows the versions of the selected file newest first and restores the oldest as a copy beside it', async () => {
    await page.goto(`${zbox.box.url}/app/org.service.files/${shareId}`);
    await page.locator('[role="option"][data-name="notes.txt"]').click();
    await page.getByRole('button', { name: en['files.versions.open'] }).click();
    await versions().first().waitFor();
    expect(await versions().count()).to.equal(2);
    // Newest first: the second content (19 bytes) above the first (11 bytes).
    expect(await versions().nth(0).textContent()).to.contain('19 B');
    expect(await versions().nth(1).textContent()).to.contain('11 B');
    await page.screenshot({ path: screenshotPath('files-versions-en') });

    await versions().nth(1).getByRole('button', { name: en['files.versions.restoreCopy'] }).click();
    await panel().getByRole('status').filter({ hasText: en['files.versions.restored'] }).waitFor();
    const copies = readdirSync(root).filter((n) => /^notes \(version .+ UTC\)\.txt$/.test(n));
    expect(copies).to.have.length(1);
    expect(readFileSync(path.join(root, copies[0]!), 'utf8')).to.equal('version one');
    expect(readFileSync(path.join(root, 'notes.txt'), 'utf8')).to.equal('now');
    // The folder's live listing brings the copy into the list behind the panel.
    await page.locator(`[role="option"][data-name="${copies[0]}"]`).waitFor({ state: 'attached' });
  });

  it('replaces the current file with a version only after its confirmation', async () => {
    await versions().nth(0).getByRole('button', { name: en['files.versions.overwrite'] }).click();
    const confirm = page.getByRole('dialog', { name: fill(en['files.versions.overwriteTitle'], { name: 'notes.txt' }) });
    await confirm.waitFor();
    // Cancelling leaves the file as it is.
    await confirm.getByRole('button', { name: en['files.versions.cancel'] }).click();
    await panel().waitFor();
    expect(readFileSync(path.join(root, 'notes.txt'), 'utf8')).to.equal('now');

    await versions().nth(0).getByRole('button', { name: en['files.versions.overwrite'] }).click();
    await confirm.getByRole('button', { name: en['files.versions.overwrite'] }).click();
    await eventually(
      async () => readFileSync(path.join(root, 'notes.txt'), 'utf8'),
      (text) => text === 'version two, longer',
      'the replaced content',
    );
    // The panel ignores Close while its restore runs: wait until the job has finished.
    await panel().locator('form[aria-busy="false"]').waitFor();
    await panel().getByRole('status').filter({ hasText: en['files.versions.restored'] }).waitFor();
    await panel().getByRole('button', { name: en['files.versions.close'] }).click();
    await panel().waitFor({ state: 'detached' });
  });
});
