import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import overviewEn from '../../web/src/apps/overview/i18n/en.json' with { type: 'json' };
import powerEn from '../../web/src/apps/control-panel/power/i18n/en.json' with { type: 'json' };
import timeEn from '../../web/src/apps/control-panel/time/i18n/en.json' with { type: 'json' };
import { openControlPanelSection, phoneViewport, screenshotPath, signInThroughPage, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { adminPassword, type TestDaemon } from '../helpers/daemon.ts';
import { makeTimeRoot } from '../helpers/time-root.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The CPU graph's values as drawn: each point's height over the graph's 80 units, 0 to 1. */
const cpuValuesSource = `(() => {
  const line = document.querySelector('polyline[data-series="Busy"]');
  const points = (line?.getAttribute('points') ?? '').trim();
  return points === '' ? [] : points.split(' ').map((p) => (80 - Number(p.split(',')[1])) / 80);
})()`;

/** Polls the drawn CPU values until there are `count` of them (waitForFunction would need eval, which the page's CSP forbids). */
async function cpuValues(page: Page, count: number, timeoutMs = 15_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const values = (await page.evaluate(cpuValuesSource)) as number[];
    if (values.length >= count) return values;
    if (Date.now() > deadline) throw new Error(`the CPU graph drew ${values.length} values, not ${count}`);
    await sleep(200);
  }
}

describe('e2e: Overview, Time and Power', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;
  let root: string;
  let busy: ChildProcess | null = null;

  before(async () => {
    root = makeTimeRoot();
    ({ box, browser } = await startBrowserBox({ daemon: { system: { root, powerDelayMs: 60_000 } } }));
  });

  after(async () => {
    busy?.kill('SIGKILL');
    await stopBrowserBox({ box, browser });
    rmSync(root, { recursive: true, force: true });
  });

  async function phonePage(): Promise<Page> {
    const context = await browser.newContext({ locale: 'en-US', viewport: phoneViewport });
    const page = await context.newPage();
    await signInThroughPage(page, box.url, 'admin', adminPassword);
    return page;
  }

  it('draws the box and its load at 390 px, and the CPU graph climbs while a busy process runs', async () => {
    const page = await phonePage();
    await page.goto(`${box.url}/app/org.service.overview`);
    await page.getByText(overviewEn['overview.os'], { exact: true }).waitFor();
    await page.locator('polyline[data-series="Busy"]').waitFor({ state: 'attached' });
    const before = await cpuValues(page, 2);
    // One core fully busy is half of this two-core machine, whatever else runs on it.
    busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    const during = await cpuValues(page, before.length + 3);
    busy.kill('SIGKILL');
    busy = null;
    expect(during.length).to.be.above(before.length);
    expect(Math.max(...during.slice(before.length))).to.be.at.least(0.45);
    // Nothing sticks out sideways on a phone.
    const overflow = (await page.evaluate(
      `(() => { const g = document.querySelector('[data-testid="graphs"]'); return g.scrollWidth - g.clientWidth; })()`,
    )) as number;
    expect(overflow).to.be.at.most(0);
    await page.screenshot({ path: screenshotPath('overview-phone') });
    await page.context().close();
  });

  it('sets the time zone and servers from the Time section', async () => {
    const { page, panel } = await openControlPanelSection(browser, box, 'time');
    const zone = panel.getByLabel(timeEn['controlPanel.time.zone'], { exact: true });
    await zone.and(page.locator(':enabled')).waitFor();
    await zone.fill('Asia/Tokyo');
    await panel.getByLabel(timeEn['controlPanel.time.servers'], { exact: true }).fill('ntp1.example.org\nntp2.example.org');
    await panel.getByRole('button', { name: timeEn['controlPanel.time.save'] }).focus();
    await page.keyboard.press('Enter');
    await panel.getByRole('status').filter({ hasText: timeEn['controlPanel.time.saved'] }).waitFor();
    const time = await (await box.signIn()).api.systemTime.time();
    expect(time).to.deep.include({ timeZone: 'Asia/Tokyo', servers: ['ntp1.example.org', 'ntp2.example.org'] });
    expect(await panel.getByTestId('sync-state').getAttribute('data-state')).to.equal(time.sync.state);
    // A zone the database lacks is refused in words.
    await zone.fill('Mars/Olympus_Mons');
    await panel.getByRole('button', { name: timeEn['controlPanel.time.save'] }).click();
    await panel.getByRole('alert').filter({ hasText: 'Mars/Olympus_Mons' }).waitFor();
    await page.context().close();
  });

  it('asks before restarting, names the job it will cut, and tells when the box acts', async () => {
    const admin = await box.signIn();
    let release = (): void => {};
    box.daemon.jobs.register('test.copyFiles', { run: () => new Promise<null>((resolve) => (release = () => resolve(null))) });
    const job = await box.daemon.jobs.enqueue('test.copyFiles', {}, admin.user!.id);
    const { page } = await openControlPanelSection(browser, box, 'power');
    await page.getByRole('button', { name: powerEn['controlPanel.power.restart'], exact: true }).click();
    const dialog = page.getByRole('dialog', { name: powerEn['controlPanel.power.confirmRestart'] });
    await dialog.getByTestId('cut-jobs').getByText(`Job ${job.id} (test.copyFiles), running`).waitFor();
    // Cancel first: nothing happens.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await admin.api.systemOverview.powerState()).pending).to.equal(null);
    await page.getByRole('button', { name: powerEn['controlPanel.power.restart'], exact: true }).click();
    await page.screenshot({ path: screenshotPath('control-panel-power-confirm') });
    await dialog.getByRole('button', { name: powerEn['controlPanel.power.restart'], exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'The box restarts at' }).waitFor();
    expect((await admin.api.systemOverview.powerState()).pending?.action).to.equal('restart');
    release();
    await sleep(100);
    await page.context().close();
  });
});
