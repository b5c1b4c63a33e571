import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ShareInfo } from '../../shared/src/api/shares/shares.ts';
import en from '../../web/src/apps/files/i18n/en.json' with { type: 'json' };
import { expectText, screenshotPath, signInThroughPage, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { type TestDaemon } from '../helpers/daemon.ts';
import { makeShare, removeTempFolders, tempFolder } from '../helpers/shares.ts';
import { until } from '../helpers/until.ts';

const appPath = '/app/org.service.files';
const fill = (text: string, params: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));

/**
 * Asserts a condition holds for a while: for the absence of something that would otherwise
 * arrive within `ms` (an upload that was not really aborted would finish within it).
 */
async function stays(what: string, check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!check()) throw new Error(`no longer ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every file below `root` as relative path -> bytes (hidden names included, so leftovers show). */
function treeOf(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(path.relative(root, full), readFileSync(full));
    }
  };
  if (existsSync(root)) walk(root);
  return files;
}

function write(root: string, rel: string, content: Buffer | string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), content);
}

describe('e2e: Files folder uploads and Copy to / Move to', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let work: ShareInfo;
  let workFolder: string;
  let reference: ShareInfo;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    const admin = await box.signIn();
    ({ share: work, folder: workFolder } = await makeShare(admin, 'Work'));
    ({ share: reference } = await makeShare(admin, 'Reference'));
    // A plain user: writes to Work, only reads Reference (the picker must not offer it as a target).
    const rita = await admin.api.users.create({ body: { username: 'rita', password: 'Regenbogen-2026!', language: 'en' } });
    await admin.api.shares.setGrants({ params: { shareId: work.id }, body: { grants: [{ subjectType: 'user', subjectId: rita.id, level: 'readWrite' }] } });
    await admin.api.shares.setGrants({ params: { shareId: reference.id }, body: { grants: [{ subjectType: 'user', subjectId: rita.id, level: 'read' }] } });
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await signInThroughPage(page, box.url, 'rita', 'Regenbogen-2026!');
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
    removeTempFolders();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await page.screenshot({ path: screenshotPath(`files-transfer-failed-${this.currentTest.title.slice(0, 30).replace(/\W+/g, '-')}`) });
  });

  const option = (name: string) => page.locator(`[role="option"][data-name="${name}"]`);

  async function openFolder(route: string, first: string): Promise<void> {
    await page.goto(`${box.url}${appPath}/${route}`);
    await option(first).waitFor();
  }

  it('uploads a picked folder tree with the keyboard, merging into an existing folder, with identical bytes', async () => {
    const source = tempFolder('cellar-upload-src-');
    const expected = new Map<string, Buffer>();
    const add = (rel: string, content: Buffer) => {
      write(source, rel, content);
      expected.set(rel, content);
    };
    add('Holiday/readme.txt', Buffer.from('the new readme'));
    add('Holiday/notes/a.txt', Buffer.from('note a'));
    add('Holiday/photos/raw/deep.bin', randomBytes(300_000));
    for (let i = 0; i < 12; i++) add(`Holiday/photos/p${i}.bin`, randomBytes(10_000 + i * 7_000));
    // Already on the share: the folder is merged into, a taken name asks as a single upload does.
    write(workFolder, 'Holiday/existing.txt', 'keep me');
    write(workFolder, 'Holiday/readme.txt', 'the old readme');
    await openFolder(String(work.id), 'Holiday');

    // Enter on the focused button opens the browser's folder picker.
    const upload = page.getByRole('button', { name: en['files.action.uploadFolder'] });
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), upload.press('Enter')]);
    await chooser.setFiles(path.join(source, 'Holiday'));

    const prompt = page.getByRole('dialog', { name: en['files.conflict.title'] });
    await prompt.waitFor();
    expect(await prompt.textContent()).to.contain(fill(en['files.conflict.text'], { name: 'readme.txt' }));
    await prompt.getByRole('button', { name: en['files.conflict.overwrite'] }).click();

    // 14 files: one summary line instead of a long list.
    const summary = page.getByTestId('upload-summary');
    await expectText(summary.locator('.total'), fill(en['files.upload.summary'], { done: expected.size, total: expected.size }));
    expect(await summary.getByRole('progressbar', { name: en['files.upload.summaryProgress'] }).getAttribute('aria-valuenow')).to.equal('100');
    await until('the tree on disk', () => treeOf(path.join(workFolder, 'Holiday')).size === expected.size + 1);
    const arrived = treeOf(workFolder);
    expect([...arrived.keys()].sort()).to.deep.equal([...expected.keys(), 'Holiday/existing.txt'].sort());
    for (const [rel, bytes] of expected) expect(arrived.get(rel)?.equals(bytes), rel).to.equal(true);
    expect(arrived.get('Holiday/existing.txt')?.toString()).to.equal('keep me');
    await page.screenshot({ path: screenshotPath('files-folder-upload-en') });
    await page.getByRole('button', { name: en['files.upload.clear'] }).click();
  });

  it('cancels every upload of a folder at once and leaves only the finished files', async () => {
    const source = tempFolder('cellar-upload-src-');
    for (let i = 0; i < 4; i++) write(source, `Big/part${i}.bin`, randomBytes(1024 * 1024));
    // Into a subfolder this time: the tree lands below it.
    write(workFolder, 'Uploads/cancel-marker.txt', 'x');
    await openFolder(`${work.id}/Uploads`, 'cancel-marker.txt');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
    await page.getByTestId('upload-folder-input').setInputFiles(path.join(source, 'Big'));
    await page.waitForFunction(
      () => Number(document.querySelector('li.upload[data-state="uploading"] [role="progressbar"]')?.getAttribute('aria-valuenow')) > 0,
    );
    await page.getByRole('button', { name: en['files.upload.cancelAll'] }).click();
    const states = await page.locator('li.upload').evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-name'), r.getAttribute('data-state')]));
    expect(states).to.have.length(4);
    expect(states.every(([, state]) => state === 'cancelled' || state === 'done')).to.equal(true);
    expect(states.filter(([, state]) => state === 'cancelled').length).to.be.greaterThan(1);
    const done = states.filter(([, state]) => state === 'done').map(([name]) => `Uploads/Big/${name}`);
    // Aborted uploads leave nothing behind, not even their hidden partial files.
    const big = () => [...treeOf(workFolder).keys()].filter((k) => k.startsWith('Uploads/Big/')).sort();
    await until(`only the finished files ${done.join()} (now ${big().join()})`, () => big().join() === done.join());
    // The throttle stays on meanwhile: lifting it at once could flush bodies DevTools still holds back.
    // At 1 MiB/s the at most 2 MiB left would arrive within 3 s, had the aborts not cut them off.
    await stays(`only the finished files ${done.join()}`, () => big().join() === done.join(), 3000);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByRole('button', { name: en['files.upload.clear'] }).click();
    await cdp.detach();
  });

  it('moves two files to another folder through the dialog, and offers only shares the user may write to', async () => {
    write(workFolder, 'm1.txt', 'first');
    write(workFolder, 'm2.txt', 'second');
    mkdirSync(path.join(workFolder, 'Inbox'));
    await openFolder(String(work.id), 'm2.txt');
    await option('m1.txt').click();
    await option('m2.txt').click({ modifiers: ['Control'] });
    await page.getByRole('button', { name: en['files.action.moveTo'] }).click();
    const dialog = page.getByRole('dialog', { name: fill(en['files.transfer.moveTitle.other'], { count: 2 }) });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).to.equal('true');
    const shareSelect = dialog.getByLabel(en['files.transfer.share']);
    await shareSelect.locator('option', { hasText: 'Reference' }).waitFor({ state: 'attached' });
    expect(await shareSelect.locator('option', { hasText: 'Reference' }).isDisabled()).to.equal(true);
    expect(await shareSelect.locator('option', { hasText: 'Work' }).isDisabled()).to.equal(false);
    // Moving into the folder the files are in already is not offered.
    const moveHere = dialog.getByRole('button', { name: en['files.transfer.moveHere'] });
    expect(await moveHere.isDisabled()).to.equal(true);
    // A new folder made in the picker is opened; Enter in its name field makes it, it does not move yet.
    const crumbs = dialog.getByRole('navigation', { name: en['files.transfer.breadcrumbs'] });
    await dialog.getByRole('button', { name: en['files.action.newFolder'] }).click();
    await dialog.getByLabel(en['files.newFolder.name'], { exact: true }).fill('Fresh');
    await page.keyboard.press('Enter');
    await expectText(crumbs.locator('[aria-current="page"]'), 'Fresh');
    expect(statSync(path.join(workFolder, 'Fresh')).isDirectory()).to.equal(true);
    expect(existsSync(path.join(workFolder, 'm1.txt'))).to.equal(true);
    await crumbs.getByRole('button', { name: 'Work' }).click();
    await dialog.locator('button[data-name="Fresh"]').waitFor();
    // Into Inbox with the keyboard: arrow keys between folders, Enter opens one.
    await dialog.locator('li button').first().focus();
    const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('data-name'));
    while ((await focusedName()) !== 'Inbox') await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expectText(dialog.getByRole('navigation', { name: en['files.transfer.breadcrumbs'] }).locator('[aria-current="page"]'), 'Inbox');
    await dialog.getByText(en['files.transfer.noFolders']).waitFor();
    await page.screenshot({ path: screenshotPath('files-move-to-dialog-en') });
    await moveHere.click();
    await dialog.waitFor({ state: 'detached' });
    await until('the moved files', () => existsSync(path.join(workFolder, 'Inbox/m1.txt')) && existsSync(path.join(workFolder, 'Inbox/m2.txt')));
    expect(readFileSync(path.join(workFolder, 'Inbox/m2.txt'), 'utf8')).to.equal('second');
    expect(existsSync(path.join(workFolder, 'm1.txt'))).to.equal(false);
    await option('m1.txt').waitFor({ state: 'detached' });
    await option('m2.txt').waitFor({ state: 'detached' });
  });

  it('copies to a folder where the name is taken: rename numbers the copy, "Ask me" asks', async () => {
    write(workFolder, 'alpha.txt', 'new alpha');
    write(workFolder, 'Other/alpha.txt', 'old alpha');
    await openFolder(String(work.id), 'alpha.txt');
    await option('alpha.txt').click();
    // Escape closes the dialog without doing anything.
    await page.keyboard.press('Alt+c');
    const dialog = page.getByRole('dialog', { name: fill(en['files.transfer.copyTitle.one'], { name: 'alpha.txt' }) });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Focus goes back to the list, where the shortcut works again.
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'listbox', null, { timeout: 5000 });

    await page.keyboard.press('Alt+c');
    await dialog.locator('button[data-name="Other"]').click();
    await expectText(dialog.getByRole('navigation', { name: en['files.transfer.breadcrumbs'] }).locator('[aria-current="page"]'), 'Other');
    const onConflict = dialog.getByLabel(en['files.transfer.onConflict']);
    await onConflict.selectOption('rename');
    // Enter confirms.
    await onConflict.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await until('the numbered copy', () => existsSync(path.join(workFolder, 'Other/alpha (2).txt')));
    expect(readFileSync(path.join(workFolder, 'Other/alpha (2).txt'), 'utf8')).to.equal('new alpha');
    expect(readFileSync(path.join(workFolder, 'Other/alpha.txt'), 'utf8')).to.equal('old alpha');
    expect(readFileSync(path.join(workFolder, 'alpha.txt'), 'utf8')).to.equal('new alpha');

    // The default ("Ask me") stops at the taken name and asks, as a paste does.
    await page.keyboard.press('Alt+c');
    await dialog.locator('button[data-name="Other"]').click();
    await expectText(dialog.getByRole('navigation', { name: en['files.transfer.breadcrumbs'] }).locator('[aria-current="page"]'), 'Other');
    await dialog.getByRole('button', { name: en['files.transfer.copyHere'] }).click();
    const prompt = page.getByRole('dialog', { name: en['files.conflict.title'] });
    await prompt.waitFor();
    await prompt.getByRole('button', { name: en['files.conflict.overwrite'] }).click();
    await until('the replaced file', () => readFileSync(path.join(workFolder, 'Other/alpha.txt'), 'utf8') === 'new alpha');
    expect(existsSync(path.join(workFolder, 'Other/alpha (3).txt'))).to.equal(false);
  });
});
