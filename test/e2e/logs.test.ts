import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { LogEntry } from '../../shared/src/api/logs/logs.ts';
import de from '../../web/src/apps/logs/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/logs/i18n/en.json' with { type: 'json' };
import { jobTitleText } from '../../web/src/lib/job-title.ts';
import { screenshotPath, signInThroughPage, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { adminPassword, type TestClient, type TestDaemon } from '../helpers/daemon.ts';

/** The Logs app in real Chromium against a real daemon: search, request links, levels, export, settings. */
describe('e2e: the Logs app', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let admin: TestClient;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const requestId = 'e2e-request-0001';

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    admin = await box.signIn();
    // Entries as the Files app writes them for its user: two belong to one request the user saw fail.
    const res = await admin.request('POST', '/api/apps/org.service.files/logs', {
      body: {
        entries: [
          { level: 'info', message: 'upload started for quarterly report', fields: { file: 'report.pdf' }, requestId },
          { level: 'error', message: 'needle upload failed', fields: { file: 'report.pdf', reason: 'disk full' }, requestId },
          { level: 'warn', message: 'unrelated haystack warning' },
        ],
      },
    });
    expect(res.status).to.equal(200);
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    await signInThroughPage(page, box.url, 'admin', adminPassword);
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
  });

  const list = () => page.getByRole('listbox', { name: en['logs.list.label'] });
  const rows = () => list().getByRole('option');
  const rowTexts = async () => (await rows().allTextContents()).map((s) => s.replace(/\s+/g, ' ').trim());

  async function openApp(route = ''): Promise<void> {
    await page.goto(`${box.url}/app/org.service.logs${route ? `/${route}` : ''}`);
    await list().waitFor({ timeout: 15_000 });
  }

  async function search(text: string): Promise<void> {
    await page.getByLabel(en['logs.filter.search']).fill(text);
    await page.getByLabel(en['logs.filter.search']).press('Enter');
  }

  /** Waits until every shown row satisfies `ok` and there is at least one. */
  async function waitForRows(ok: (texts: string[]) => boolean): Promise<string[]> {
    const deadline = Date.now() + 10_000;
    let texts = await rowTexts();
    while (!(texts.length > 0 && ok(texts)) && Date.now() < deadline) {
      await page.waitForTimeout(50);
      texts = await rowTexts();
    }
    expect(texts.length, 'rows shown').to.be.greaterThan(0);
    expect(ok(texts), `rows: ${JSON.stringify(texts)}`).to.equal(true);
    return texts;
  }

  it('finds a known entry by text and shows its fields from the keyboard', async () => {
    await openApp();
    await search('needle');
    const texts = await waitForRows((t) => t.length === 1 && t[0]!.includes('needle upload failed'));
    expect(texts[0]).to.include('app/org.service.files');
    // The time reads whole in en-US's longer format ("Nov 29, 2026, 3:09:28 AM"), not cut by its column.
    const time = rows().first().locator('time');
    expect(await time.evaluate((el) => el.scrollWidth - el.clientWidth), await time.innerText()).to.be.at.most(0);
    // Arrow keys move through the entries, Enter opens the details with every structured field.
    await list().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const details = page.getByRole('region', { name: en['logs.details.title'] });
    await details.waitFor();
    expect(await details.textContent()).to.include('disk full');
    expect(await details.textContent()).to.include(requestId);
    await page.screenshot({ path: screenshotPath('logs-search-en') });
  });

  it('follows the request id link to every entry of that request, also reachable by URL', async () => {
    await page.getByRole('link', { name: en['logs.details.requestLink'] }).click();
    const texts = await waitForRows((t) => t.length === 2);
    expect(texts.some((t) => t.includes('upload started for quarterly report'))).to.equal(true);
    expect(texts.some((t) => t.includes('needle upload failed'))).to.equal(true);
    expect(new URL(page.url()).pathname).to.equal(`/app/org.service.logs/request/${requestId}`);
    expect(await page.getByText(en['logs.request.showing'].replace('{id}', requestId)).isVisible()).to.equal(true);

    // The same address in a fresh load, as an error message elsewhere would link it.
    await openApp(`request/${requestId}`);
    await waitForRows((t) => t.length === 2 && t.every((r) => !r.includes('haystack')));
    await page.screenshot({ path: screenshotPath('logs-request-en') });
  });

  it('filters by level', async () => {
    await openApp();
    await search('upload haystack'.split(' ')[0]!);
    await waitForRows((t) => t.length === 2);
    // Only errors: switch the other three levels off.
    for (const level of ['debug', 'info', 'warn'] as const) await page.getByRole('button', { name: en[`logs.level.${level}`], exact: true }).click();
    const texts = await waitForRows((t) => t.length === 1);
    expect(texts[0]).to.include('needle upload failed');
    expect(await page.getByRole('button', { name: en['logs.level.error'], exact: true }).getAttribute('aria-pressed')).to.equal('true');
    expect(await page.getByRole('button', { name: en['logs.level.info'], exact: true }).getAttribute('aria-pressed')).to.equal('false');
  });

  it('exports the filtered entries as a JSON lines download, and as text', async () => {
    await openApp();
    await search('needle');
    await waitForRows((t) => t.length === 1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: en['logs.export.label'] }).click()]);
    expect(download.suggestedFilename()).to.match(/^cellar-logs-\d{8}T\d{6}Z\.jsonl$/);
    const lines = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\n');
    const exported = lines.map((l) => JSON.parse(l) as LogEntry);
    expect(exported.map((e) => e.message)).to.deep.equal(['needle upload failed']);
    expect(exported[0]?.requestId).to.equal(requestId);
    expect(exported[0]?.fields).to.deep.equal({ file: 'report.pdf', reason: 'disk full' });

    await page.getByLabel(en['logs.export.format']).selectOption('text');
    const [text] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: en['logs.export.label'] }).click()]);
    expect(text.suggestedFilename()).to.match(/\.log$/);
    const content = readFileSync(await text.path(), 'utf8');
    expect(content).to.match(/ ERROR app\/org\.service\.files \[e2e-request-0001\] needle upload failed /);
  });

  it('puts new matching entries on top while the live tail is on', async () => {
    await openApp();
    await search('needle');
    await waitForRows((t) => t.length === 1);
    await page.getByRole('button', { name: en['logs.live.toggle'] }).click();
    await page.getByText(en['logs.live.on']).waitFor();
    // A matching and a non-matching entry arrive; only the first joins the list, at the top.
    await admin.request('POST', '/api/apps/org.service.files/logs', {
      body: {
        entries: [
          { level: 'error', message: 'second needle failure' },
          { level: 'error', message: 'other thing' },
        ],
      },
    });
    const texts = await waitForRows((t) => t.length === 2);
    expect(texts[0]).to.include('second needle failure');
    await page.getByRole('button', { name: en['logs.live.toggle'] }).click();
  });

  it('saves the settings and shows the status', async () => {
    await openApp();
    await page.getByRole('button', { name: en['logs.settings.open'] }).click();
    const dialog = page.getByRole('dialog', { name: en['logs.settings.title'] });
    await dialog.waitFor();
    await dialog.getByText(en['logs.settings.used']).waitFor();
    await dialog.getByLabel(en['logs.settings.retentionDays']).fill('45');
    await dialog.getByLabel(en['logs.settings.maxMiB']).fill('128');
    await dialog.getByLabel(en['logs.settings.archiveRetentionDays']).fill('400');
    await dialog.getByRole('button', { name: en['logs.settings.save'] }).click();
    await dialog.getByText(en['logs.settings.saved']).waitFor();
    await page.screenshot({ path: screenshotPath('logs-settings-en') });
    const status = await admin.api.logs.status();
    expect(status.settings.retentionDays).to.equal(45);
    expect(status.settings.maxBytes).to.equal(128 * 1024 ** 2);
    expect(status.settings.archiveRetentionDays).to.equal(400);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('speaks German for a German user', async () => {
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    try {
      // The language comes with the sign-in: a fresh browser session of the now German user.
      await context.close();
      context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 800 } });
      page = await context.newPage();
      await signInThroughPage(page, box.url, 'admin', adminPassword);
      await page.goto(`${box.url}/app/org.service.logs`);
      await page.getByRole('listbox', { name: de['logs.list.label'] }).waitFor({ timeout: 15_000 });
      await page.getByRole('button', { name: de['logs.settings.open'] }).waitFor();
      await page.getByRole('region', { name: de['logs.histogram.label'] }).waitFor();
      await page.getByRole('listbox', { name: de['logs.list.label'] }).getByRole('option').first().click();
      await page.getByRole('region', { name: de['logs.details.title'] }).waitFor();
      await page.screenshot({ path: screenshotPath('logs-list-de') });
      await page.getByRole('button', { name: de['logs.settings.open'] }).click();
      await page.getByRole('dialog', { name: de['logs.settings.title'] }).getByText(de['logs.settings.used']).waitFor();
      await page.screenshot({ path: screenshotPath('logs-settings-de') });
      await page.keyboard.press('Escape');

      // The search finds what the German reader sees ("admin hat sich angemeldet"), though the box
      // keeps the English text ("signed in"); English words still find it too.
      const search = page.getByLabel(de['logs.filter.search']);
      for (const words of ['admin angemeldet', 'admin signed']) {
        await search.fill(words);
        await search.press('Enter');
        const shown = page.getByRole('listbox', { name: de['logs.list.label'] }).getByRole('option');
        await shown.filter({ hasText: 'admin hat sich angemeldet' }).first().waitFor();
        const texts = (await shown.allTextContents()).map((s) => s.replace(/\s+/g, ' '));
        expect(
          texts.every((t) => t.includes('admin hat sich angemeldet')),
          JSON.stringify(texts),
        ).to.equal(true);
      }
      // A job's entries name what it does, in German, not only its number.
      const title = { code: 'files.copy', params: { count: 2, target: 'Familie' } };
      box.daemon.jobs.register('test.titledCopy', { title: () => title, run: () => Promise.resolve(null) });
      const job = await box.daemon.jobs.enqueue('test.titledCopy', {}, admin.user!.id);
      await search.fill('Aufgabe gestartet');
      await search.press('Enter');
      const started = `Aufgabe ${job.id} „${jobTitleText('de', title, 'test.titledCopy')}“ gestartet.`;
      await page.getByRole('listbox', { name: de['logs.list.label'] }).getByRole('option').filter({ hasText: started }).waitFor();

      await search.fill('carol angemeldet');
      await search.press('Enter');
      await page.getByRole('status').filter({ hasText: de['logs.list.empty'] }).waitFor();
      await page.screenshot({ path: screenshotPath('logs-search-de') });
    } finally {
      await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });
});
