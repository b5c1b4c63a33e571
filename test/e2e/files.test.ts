import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ShareInfo } from '../../shared/src/api/shares/shares.ts';
import de from '../../web/src/apps/files/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/files/i18n/en.json' with { type: 'json' };
import cp from '../../web/src/apps/control-panel/shares/i18n/en.json' with { type: 'json' };
import { expectText, screenshotPath, signInThroughPage, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { adminPassword, type TestDaemon } from '../helpers/daemon.ts';
import { photo } from '../helpers/images.ts';
import { makeShare, removeTempFolders, tempFolder } from '../helpers/shares.ts';
import { until } from '../helpers/until.ts';

const appPath = '/app/org.service.files';

describe('e2e: the Files app', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let share: ShareInfo;
  let folder: string;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    const admin = await box.signIn();
    ({ share, folder } = await makeShare(admin, 'Documents'));
    writeFileSync(path.join(folder, 'alpha.txt'), 'alpha');
    writeFileSync(path.join(folder, 'beta.txt'), 'beta');
    writeFileSync(path.join(folder, 'file10.txt'), 'ten');
    writeFileSync(path.join(folder, 'file2.txt'), 'two');
    mkdirSync(path.join(folder, 'Projects'));
    writeFileSync(path.join(folder, 'Projects', 'plan.md'), '# plan');
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    await signInThroughPage(page, box.url, 'admin', adminPassword);
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
    removeTempFolders();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await page.screenshot({ path: screenshotPath(`files-failed-${this.currentTest.title.slice(0, 30).replace(/\W+/g, '-')}`) });
  });

  const listbox = () => page.getByRole('listbox');
  const option = (name: string) => page.locator(`[role="option"][data-name="${name}"]`);
  const names = () => page.locator('[role="option"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')));

  async function openFolder(route: string): Promise<void> {
    await page.goto(`${box.url}${appPath}/${route}`);
    await listbox().waitFor();
  }

  it('lists a share in natural order, navigates with the keyboard and keeps the folder in the URL', async () => {
    await openFolder(String(share.id));
    await option('alpha.txt').waitFor();
    expect(await names()).to.deep.equal(['alpha.txt', 'beta.txt', 'file2.txt', 'file10.txt', 'Projects']);
    // A file made beside the app (a shell, SMB) shows up in its place, and leaves again.
    writeFileSync(path.join(folder, 'delta.txt'), 'a longer delta file');
    await option('delta.txt').waitFor();
    expect(await names()).to.deep.equal(['alpha.txt', 'beta.txt', 'delta.txt', 'file2.txt', 'file10.txt', 'Projects']);
    // Sort by size, largest first: the daemon orders, the list follows.
    await page.getByLabel(en['files.sort.label']).selectOption('size:desc');
    await page.waitForFunction(() => document.querySelector('[role="option"]')?.getAttribute('data-name') === 'delta.txt');
    await page.getByLabel(en['files.sort.label']).selectOption('name:asc');
    rmSync(path.join(folder, 'delta.txt'));
    // The list is re-read for the new order; wait for it whole before using the keys.
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[role="option"]')].map((r) => r.getAttribute('data-name')).join() === 'alpha.txt,beta.txt,file2.txt,file10.txt,Projects',
    );
    await listbox().focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
    expect(await page.locator('[role="option"][aria-selected="true"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')))).to.deep.equal([
      'Projects',
    ]);
    await page.keyboard.press('Enter');
    await option('plan.md').waitFor();
    expect(new URL(page.url()).pathname).to.equal(`${appPath}/${share.id}/Projects`);
    await expectText(page.getByRole('navigation', { name: en['files.breadcrumbs'] }).locator('[aria-current="page"]'), 'Projects');
    // A reload opens the same folder.
    await page.reload();
    await option('plan.md').waitFor();
    // Backspace goes up and focuses the folder we came from.
    await listbox().focus();
    await page.keyboard.press('Backspace');
    await option('alpha.txt').waitFor();
    await page.waitForFunction(() => document.querySelector('[role="option"][data-name="Projects"]')?.getAttribute('aria-selected') === 'true');
    // Shift extends, Ctrl+A selects everything.
    await page.keyboard.press('Shift+ArrowUp');
    await page.keyboard.press('Shift+ArrowUp');
    expect(await page.locator('[role="option"][aria-selected="true"]').count()).to.equal(3);
    await page.keyboard.press('Control+a');
    expect(await page.locator('[role="option"][aria-selected="true"]').count()).to.equal(5);
    // The help lists the shortcuts.
    await page.keyboard.press('F1');
    const help = page.getByRole('dialog', { name: en['files.help.title'] });
    await help.waitFor();
    expect(await help.getByText(en['files.help.newFolder']).isVisible()).to.equal(true);
    await page.screenshot({ path: screenshotPath('files-help-en') });
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });

  it('uploads a file with per-file progress, then asks before a name is taken and keeps both', async () => {
    await openFolder(String(share.id));
    await option('alpha.txt').waitFor();
    // Throttled, so the progress bar really moves through its values on the way.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 3 * 1024 * 1024 });
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { progressSeen: number[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"][aria-label^="Upload of"]');
        const now = Number(bar?.getAttribute('aria-valuenow') ?? NaN);
        if (!Number.isNaN(now) && seen[seen.length - 1] !== now) seen.push(now);
      }).observe(document.body, { subtree: true, attributes: true, childList: true });
    });
    const body = Buffer.alloc(4 * 1024 * 1024, 7);
    await page.getByTestId('upload-input').setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: body });
    await page.locator('li.upload[data-name="big.bin"]').waitFor();
    // Half way through, the line is opened up again: the bar has moved, the rest goes quickly.
    await page.waitForFunction(() => (window as unknown as { progressSeen: number[] }).progressSeen.some((v) => v >= 50 && v < 100));
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.waitForFunction(() => document.querySelector('li.upload[data-name="big.bin"]')?.getAttribute('data-state') === 'done', null, {
      timeout: 20_000,
    });
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
    expect(
      seen.some((v) => v > 0 && v < 100),
      `progress values ${seen.join(',')}`,
    ).to.equal(true);
    expect(seen[seen.length - 1]).to.equal(100);
    expect(statSync(path.join(folder, 'big.bin')).size).to.equal(body.length);
    // The folder topic brings the new file into the list.
    await option('big.bin').waitFor();

    // The same name again: the conflict prompt, then "Keep both" stores it under the next free name.
    await page.getByTestId('upload-input').setInputFiles({ name: 'alpha.txt', mimeType: 'text/plain', buffer: Buffer.from('second alpha') });
    const prompt = page.getByRole('dialog', { name: en['files.conflict.title'] });
    await prompt.waitFor();
    await page.screenshot({ path: screenshotPath('files-upload-conflict-en') });
    await prompt.getByRole('button', { name: en['files.conflict.rename'] }).click();
    await option('alpha (2).txt').waitFor();
    expect(readFileSync(path.join(folder, 'alpha (2).txt'), 'utf8')).to.equal('second alpha');
    expect(readFileSync(path.join(folder, 'alpha.txt'), 'utf8')).to.equal('alpha');
    // Replace overwrites in place.
    await page.getByTestId('upload-input').setInputFiles({ name: 'alpha (2).txt', mimeType: 'text/plain', buffer: Buffer.from('replaced') });
    await prompt.getByRole('button', { name: en['files.conflict.overwrite'] }).click();
    await until('the replaced content', () => readFileSync(path.join(folder, 'alpha (2).txt'), 'utf8') === 'replaced');
    await page.waitForFunction(() => document.querySelector('li.upload[data-name="alpha (2).txt"][data-state="done"]') !== null);
    await page.getByRole('button', { name: en['files.upload.clear'] }).click();

    // A cancelled upload stops and leaves nothing behind, not even its hidden temporary file.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
    const before = readdirSync(folder).sort();
    // Large enough (96 s at this rate) that the whole body never arrives before the click, even on a busy machine:
    // a body complete at the daemon is a stored file, and the cancel after it comes too late to undo it.
    const slowBody = Buffer.alloc(24 * 1024 * 1024, 7);
    await page.getByTestId('upload-input').setInputFiles({ name: 'slow.bin', mimeType: 'application/octet-stream', buffer: slowBody });
    await page.waitForFunction(
      () => Number(document.querySelector('[role="progressbar"][aria-label="Upload of slow.bin"]')?.getAttribute('aria-valuenow')) > 0,
    );
    await page.getByRole('button', { name: 'Cancel the upload of slow.bin' }).click();
    await page.waitForFunction(() => document.querySelector('li.upload[data-name="slow.bin"]')?.getAttribute('data-state') === 'cancelled');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await until('the partial upload to vanish', () => JSON.stringify(readdirSync(folder).sort()) === JSON.stringify(before), 20_000).catch((err: Error) => {
      throw new Error(
        `${err.message}: ${readdirSync(folder)
          .filter((n) => !before.includes(n))
          .join(', ')}`,
      );
    });
    await page.getByRole('button', { name: en['files.upload.clear'] }).click();
  });

  it('uploads files dropped onto the folder', async () => {
    await openFolder(String(share.id));
    await option('alpha.txt').waitFor();
    const transfer = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['dropped content'], 'dropped.txt', { type: 'text/plain' }));
      return dt;
    });
    const zone = page.getByRole('region', { name: en['files.dropZone'] });
    await zone.dispatchEvent('dragover', { dataTransfer: transfer });
    await zone.dispatchEvent('drop', { dataTransfer: transfer });
    await option('dropped.txt').waitFor();
    expect(readFileSync(path.join(folder, 'dropped.txt'), 'utf8')).to.equal('dropped content');
    await page.getByRole('button', { name: en['files.upload.clear'] }).click();
  });

  it('renames inline with F2 and makes a new folder with Ctrl+Shift+N', async () => {
    await openFolder(String(share.id));
    await option('beta.txt').click();
    await page.keyboard.press('F2');
    const field = page.getByRole('textbox', { name: 'New name for beta.txt' });
    await field.waitFor();
    await field.fill('gamma.txt');
    await page.keyboard.press('Enter');
    await option('gamma.txt').waitFor();
    expect(existsSync(path.join(folder, 'gamma.txt'))).to.equal(true);
    expect(existsSync(path.join(folder, 'beta.txt'))).to.equal(false);
    expect(await option('gamma.txt').getAttribute('aria-selected')).to.equal('true');
    // A taken name is refused in words and nothing changes.
    await page.keyboard.press('F2');
    await page.getByRole('textbox', { name: 'New name for gamma.txt' }).fill('alpha.txt');
    await page.keyboard.press('Enter');
    await expectText(page.getByRole('status'), 'alpha.txt already exists.'.replace(/^/, '“').replace(' already', '” already'));
    expect(readFileSync(path.join(folder, 'alpha.txt'), 'utf8')).to.equal('alpha');

    await listbox().focus();
    await page.keyboard.press('Control+Shift+N');
    const dialog = page.getByRole('dialog', { name: en['files.newFolder.title'] });
    await dialog.getByLabel(en['files.newFolder.name']).fill('Archive');
    await page.keyboard.press('Enter');
    await option('Archive').waitFor();
    expect(statSync(path.join(folder, 'Archive')).isDirectory()).to.equal(true);
  });

  it('copies with Ctrl+C and Ctrl+V into another folder as a job', async () => {
    await openFolder(String(share.id));
    await option('file2.txt').click();
    await option('file10.txt').click({ modifiers: ['Shift'] });
    await page.keyboard.press('Control+c');
    await option('Archive').dblclick();
    await listbox().waitFor();
    await page.waitForURL(`**${appPath}/${share.id}/Archive`);
    await listbox().focus();
    await page.keyboard.press('Control+v');
    await option('file10.txt').waitFor();
    await option('file2.txt').waitFor();
    expect(readFileSync(path.join(folder, 'Archive', 'file10.txt'), 'utf8')).to.equal('ten');
    expect(existsSync(path.join(folder, 'file10.txt'))).to.equal(true);
  });

  it('deletes to the recycle bin after confirming, and restores from the bin', async () => {
    await openFolder(String(share.id));
    await option('gamma.txt').click();
    await page.keyboard.press('Delete');
    const confirm = page.getByRole('dialog', { name: en['files.delete.title'] });
    await confirm.waitFor();
    await page.screenshot({ path: screenshotPath('files-delete-confirm-en') });
    await confirm.getByRole('button', { name: en['files.delete.confirm'] }).click();
    await option('gamma.txt').waitFor({ state: 'detached' });
    await until('gamma.txt to leave the folder', () => !existsSync(path.join(folder, 'gamma.txt')));

    await page.getByRole('navigation', { name: en['files.shares.label'] }).getByRole('button', { name: en['files.trash.title'] }).click();
    await page.waitForURL(`**${appPath}/trash/${share.id}`);
    const row = page.locator('tr[data-name="gamma.txt"]');
    await row.waitFor();
    expect(await row.textContent())
      .to.contain('/gamma.txt')
      .and.to.contain('admin');
    await page.screenshot({ path: screenshotPath('files-trash-en') });
    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: en['files.trash.restore'] }).click();
    await row.waitFor({ state: 'detached' });
    await until('gamma.txt to be back', () => existsSync(path.join(folder, 'gamma.txt')));
    expect(readFileSync(path.join(folder, 'gamma.txt'), 'utf8')).to.equal('beta');
  });

  it('deletes for good from the bin and empties it, each after confirming', async () => {
    await openFolder(String(share.id));
    await option('dropped.txt').click();
    await option('alpha (2).txt').click({ modifiers: ['Control'] });
    await page.keyboard.press('Delete');
    await page.getByRole('dialog', { name: en['files.delete.title'] }).getByRole('button', { name: en['files.delete.confirm'] }).click();
    await option('dropped.txt').waitFor({ state: 'detached' });
    await page.goto(`${box.url}${appPath}/trash/${share.id}`);
    const dropped = page.locator('tr[data-name="dropped.txt"]');
    await dropped.waitFor();
    await dropped.getByRole('checkbox').check();
    await page.getByRole('button', { name: en['files.trash.delete'] }).click();
    const sure = page.getByRole('dialog', { name: en['files.trash.deleteTitle'] });
    await sure.getByRole('button', { name: en['files.trash.delete'] }).click();
    await dropped.waitFor({ state: 'detached' });
    expect(await page.locator('tr[data-name="alpha (2).txt"]').count()).to.equal(1);
    await page.getByRole('button', { name: en['files.trash.empty'] }).click();
    const empty = page.getByRole('dialog', { name: en['files.trash.emptyTitle'] });
    await empty.getByRole('button', { name: en['files.trash.empty'] }).click();
    await page.getByText(en['files.trash.none']).waitFor();
    expect(existsSync(path.join(folder, 'alpha (2).txt'))).to.equal(false);
  });

  it('shows thumbnails of the pictures on screen in the grid view', async () => {
    mkdirSync(path.join(folder, 'Photos'));
    await photo(640, 480)
      .png()
      .toFile(path.join(folder, 'Photos', 'sunset.png'));
    writeFileSync(path.join(folder, 'Photos', 'notes.txt'), 'not a picture');
    await openFolder(`${share.id}/Photos`);
    await option('sunset.png').waitFor();
    await page.getByRole('radio', { name: en['files.view.grid'] }).click();
    const img = option('sunset.png').locator('img');
    await img.waitFor({ timeout: 20_000 });
    expect(await img.getAttribute('src')).to.match(new RegExp(`^/api/files/${share.id}/thumbnail\\?path=Photos%2Fsunset\\.png&size=256&v=[0-9a-f]+$`));
    await page.waitForFunction(() => (document.querySelector('[data-name="sunset.png"] img') as HTMLImageElement | null)?.naturalWidth === 256);
    expect(await option('notes.txt').locator('img').count()).to.equal(0);
    await page.screenshot({ path: screenshotPath('files-grid-en') });
    await page.getByRole('radio', { name: en['files.view.list'] }).click();
    await page.screenshot({ path: screenshotPath('files-list-en') });
  });

  it('edits a share in the Control Panel: file services, retention and grants with the effective access', async () => {
    const admin = await box.signIn();
    const greta = await admin.api.users.create({ body: { username: 'greta', password: 'Sonnenblume-2026!', language: 'de' } });
    await page.goto(`${box.url}/app/org.service.control-panel/shares`);
    const table = page.getByRole('table', { name: cp['controlPanel.shares.heading'] });
    const row = table.getByRole('row').filter({ hasText: 'Documents' });
    await row.waitFor();
    expect(await row.textContent()).to.contain(folder);
    await row.getByRole('button', { name: 'Documents' }).click();
    await page.waitForURL(`**/app/org.service.control-panel/shares/${share.id}`);
    const settings = page.getByRole('form', { name: cp['controlPanel.shares.settings'] });
    await settings.getByLabel(cp['controlPanel.shares.smb']).check();
    await settings.getByLabel(cp['controlPanel.shares.smbEncrypt']).check();
    await settings.getByLabel(cp['controlPanel.shares.sftp']).check();
    const retention = settings.getByLabel(cp['controlPanel.shares.retention']);
    await retention.fill('5000');
    await settings.getByText(cp['controlPanel.shares.retentionInvalid']).waitFor();
    expect(await settings.getByRole('button', { name: cp['controlPanel.shares.save'] }).isDisabled()).to.equal(true);
    await retention.fill('14');
    await settings.getByRole('button', { name: cp['controlPanel.shares.save'] }).click();
    await page.getByRole('status').filter({ hasText: 'Documents' }).waitFor();
    const [details] = (await admin.api.shares.details()).filter((d) => d.id === share.id);
    expect(details).to.include({ smbEnabled: true, smbEncrypt: true, sftpEnabled: true, trashRetentionDays: 14 });

    await page.getByRole('tab', { name: cp['controlPanel.shares.grants'] }).click();
    await page.getByLabel('Access of greta').selectOption('readWrite');
    await page.getByRole('button', { name: cp['controlPanel.shares.saveGrants'] }).click();
    const effective = page.getByRole('table', { name: cp['controlPanel.shares.effective'] });
    await page.waitForFunction(() => document.querySelector('tr[data-user="greta"] .access')?.getAttribute('data-access') === 'readWrite');
    expect(await effective.locator('tr[data-user="admin"] .access').getAttribute('data-access')).to.equal('readWrite');
    const grants = await admin.api.shares.grants({ params: { shareId: share.id } });
    expect(grants.grants).to.deep.equal([{ subjectType: 'user', subjectId: greta.id, level: 'readWrite' }]);
    await page.screenshot({ path: screenshotPath('files-control-panel-shares-en') });

    // Registering a host folder: a bad one is refused in words, a good one is listed.
    await page.getByRole('button', { name: cp['controlPanel.shares.register.open'] }).click();
    const dialog = page.getByRole('dialog', { name: cp['controlPanel.shares.register.title'] });
    await dialog.getByLabel(cp['controlPanel.shares.hostPath']).fill(path.join(folder, 'no-such-folder'));
    await dialog.getByLabel(cp['controlPanel.shares.name'], { exact: true }).fill('Elsewhere');
    await dialog.getByRole('button', { name: cp['controlPanel.shares.register.submit'] }).click();
    await dialog.getByRole('alert').filter({ hasText: /\S/ }).waitFor();
    const other = tempFolder();
    await dialog.getByLabel(cp['controlPanel.shares.hostPath']).fill(other);
    await dialog.getByRole('button', { name: cp['controlPanel.shares.register.submit'] }).click();
    await table.getByRole('row').filter({ hasText: other }).waitFor();
  });

  it('speaks German to a German user with read and write access', async () => {
    const german = await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 800 } });
    const p = await german.newPage();
    await signInThroughPage(p, box.url, 'greta', 'Sonnenblume-2026!');
    await p.goto(`${box.url}${appPath}/${share.id}`);
    await p.locator('[role="option"][data-name="alpha.txt"]').waitFor();
    expect(await p.getByRole('button', { name: de['files.action.upload'], exact: true }).isEnabled()).to.equal(true);
    await p.locator('[role="option"][data-name="alpha.txt"]').click();
    await p.screenshot({ path: screenshotPath('files-list-de') });
    await p.keyboard.press('Delete');
    await p.getByRole('dialog', { name: de['files.delete.title'] }).waitFor();
    await p.screenshot({ path: screenshotPath('files-delete-confirm-de') });
    await p.keyboard.press('Escape');
    await p.goto(`${box.url}${appPath}/trash/${share.id}`);
    await p.getByText(de['files.trash.retention'].replace('{days}', '14')).waitFor();
    await p.screenshot({ path: screenshotPath('files-trash-de') });
    await german.close();
  });

  it('opens a folder of 100,000 entries at once and scrolls to its end with few rows in the page', async function () {
    this.timeout(480_000);
    const big = path.join(folder, 'Big');
    mkdirSync(big);
    for (let i = 0; i < 100_000; i++) writeFileSync(path.join(big, `f${i}.dat`), '');
    const started = Date.now();
    await openFolder(`${share.id}/Big`);
    await option('f0.dat').waitFor();
    const firstRows = Date.now() - started;
    let maxRows = 0;
    const scrollStarted = Date.now();
    while ((await option('f99999.dat').count()) === 0) {
      await listbox().evaluate((el) => el.scrollTo(0, el.scrollHeight));
      maxRows = Math.max(maxRows, await page.locator('[role="option"]').count());
      await page.waitForTimeout(0);
    }
    const toEnd = Date.now() - scrollStarted;
    expect(maxRows).to.be.below(80);
    expect(await listbox().getAttribute('data-count')).to.equal('100000');
    await expectText(page.getByRole('status'), '100,000 entries');
    // Keyboard too: End reaches the last entry, Home the first.
    await listbox().focus();
    await page.keyboard.press('Home');
    await option('f0.dat').waitFor();
    expect(await option('f0.dat').getAttribute('aria-selected')).to.equal('true');
    await page.keyboard.press('End');
    await option('f99999.dat').waitFor();
    console.log(`      100,000 entries: first rows after ${firstRows} ms, end reached after ${toEnd} ms, at most ${maxRows} rows in the page`);
    expect(firstRows).to.be.below(5000);
    // 100 pages of 1,000: each costs the daemon's listing plus little else (a generous bound for a busy machine).
    expect(toEnd / 100).to.be.below(3000);
    expect(readdirSync(big).length).to.equal(100_000);
  });
});
