import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import networkEn from '../../web/src/apps/control-panel/network/i18n/en.json' with { type: 'json' };
import { controlsPastViewport, openControlPanelSection, phoneViewport, screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import type { TestDaemon } from '../helpers/daemon.ts';
import { makeNamespace, oldAddress, type TestNamespace } from '../system/network-fixture.ts';

// The daemon applies for real, with ip inside a namespace the test makes (a veth pair); the browser
// talks to it over the loopback of this machine, which the change never touches.
describe('e2e: a network change in the Control Panel, checked, counted down and confirmed', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;
  let ns: TestNamespace;

  before(async () => {
    expect(process.getuid?.(), 'the network browser test runs as root (ip netns)').to.equal(0);
    ns = makeNamespace();
    ({ box, browser } = await startBrowserBox({ daemon: { system: { network: { root: ns.root, namespace: ns.name } } } }));
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
    ns?.close();
  });

  it('shows the check before applying, counts down after, and keeps the change when confirmed, at 390 px', async () => {
    const { context, page, panel } = await openControlPanelSection(browser, box, 'network');
    const card = panel.getByTestId('interface-eth0');
    await card.getByTestId('live-addresses').filter({ hasText: oldAddress }).waitFor();
    await panel.getByLabel(networkEn['controlPanel.network.hostName'], { exact: true }).fill('cellar-moved');
    await card.getByLabel(networkEn['controlPanel.network.addresses'], { exact: true }).fill('10.88.0.2/24');
    await card.getByLabel(networkEn['controlPanel.network.gateway'], { exact: true }).fill('10.88.0.1');
    await panel.getByRole('button', { name: networkEn['controlPanel.network.check'] }).click();
    const check = panel.getByTestId('network-check');
    await check.getByText('Interfaces that change: eth0').waitFor();
    await check.getByText('The host name becomes cellar-moved.').waitFor();
    await check.getByText('The box answers afterwards at: 10.88.0.2').waitFor();
    // Checking touched nothing.
    expect(ns.addresses()).to.deep.equal([oldAddress]);
    expect(await controlsPastViewport(page)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('control-panel-network-check'), fullPage: true });

    await check.getByRole('button', { name: networkEn['controlPanel.network.apply'] }).click();
    const countdown = panel.getByTestId('countdown');
    await countdown.waitFor();
    const first = Number(await countdown.getAttribute('data-seconds'));
    expect(first).to.be.within(55, 60);
    expect(ns.addresses()).to.deep.equal(['10.88.0.2/24']);
    await page.waitForTimeout(2100);
    expect(Number(await countdown.getAttribute('data-seconds'))).to.be.below(first);
    expect(await controlsPastViewport(page)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('control-panel-network-countdown') });

    await panel.getByRole('button', { name: networkEn['controlPanel.network.confirm'] }).focus();
    await page.keyboard.press('Enter');
    await panel.getByRole('status').filter({ hasText: networkEn['controlPanel.network.confirmed'] }).waitFor();
    await countdown.waitFor({ state: 'detached' });
    const state = await (await box.signIn()).api.systemNetwork.network();
    expect(state.pending).to.equal(null);
    expect(state.configured.interfaces.find((i) => i.name === 'eth0')).to.deep.include({ addresses: ['10.88.0.2/24'], gateway: '10.88.0.1' });
    expect(ns.addresses()).to.deep.equal(['10.88.0.2/24']);
    await context.close();
  });

  it('signs in at the new address with the follow token and confirms from there', async () => {
    const admin = await box.signIn();
    const pending = await admin.api.systemNetwork.setNetwork({
      body: { ...(await admin.api.systemNetwork.network()).configured, hostName: 'cellar-followed' },
    });
    // A browser without the old address's cookie, as at a new address: the page opened by the old one.
    const context = await browser.newContext({ locale: 'en-US', viewport: phoneViewport });
    const page = await context.newPage();
    await page.goto(`${box.url}/#network-follow=${encodeURIComponent(pending.followToken!)}&change=${pending.changeId}`);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(new URL(page.url()).hash).to.equal('');
    const state = await admin.api.systemNetwork.network();
    expect(state.pending).to.equal(null);
    expect(state.configured.hostName).to.equal('cellar-followed');
    await context.close();
  });
});
