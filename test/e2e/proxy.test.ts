import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import de from '../../web/src/apps/control-panel/proxy/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/control-panel/proxy/i18n/en.json' with { type: 'json' };
import deDesktop from '../../web/src/desktop/i18n/de.json' with { type: 'json' };
import enDesktop from '../../web/src/desktop/i18n/en.json' with { type: 'json' };
import {
  controlsPastViewport,
  openControlPanelSection,
  phoneViewport,
  screenshotPath,
  signInThroughPage,
  startBrowserBox,
  stopBrowserBox,
} from '../helpers/browser.ts';
import { adminPassword, type TestDaemon } from '../helpers/daemon.ts';

describe('e2e: Control Panel, Reverse proxy, at phone size', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let browser: Browser;
  let target: Server;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    target = createServer((_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    target?.close();
    await stopBrowserBox({ box, browser });
  });

  it('adds a host, checks its target, adds and edits a stream and a redirect, saves the options and deletes after a confirmation', async () => {
    const { context, page, panel } = await openControlPanelSection(browser, box, 'proxy');
    await panel.getByText(en['controlPanel.proxy.noHosts']).waitFor({ timeout: 20_000 });
    expect(await controlsPastViewport(page)).to.deep.equal([]);

    await panel.getByRole('button', { name: en['controlPanel.proxy.addHost'] }).click();
    const dialog = page.getByRole('dialog', { name: en['controlPanel.proxy.newHost'] });
    await dialog.getByLabel(en['controlPanel.proxy.domains']).fill('camera.local');
    await dialog.getByLabel(en['controlPanel.proxy.targetHost']).fill('127.0.0.1');
    await dialog.getByLabel(en['controlPanel.proxy.targetPort']).fill(String((target.address() as AddressInfo).port));
    await dialog.getByLabel(en['controlPanel.proxy.signIn']).check();
    await dialog.getByRole('checkbox', { name: 'admin' }).waitFor();
    expect(await controlsPastViewport(page)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('control-panel-proxy-host') });
    // By keyboard: Enter in a field saves.
    await dialog.getByLabel(en['controlPanel.proxy.domains']).press('Enter');
    const item = panel.getByRole('listitem').filter({ hasText: 'camera.local → http:' });
    await item.waitFor({ timeout: 30_000 });

    await item.getByRole('button', { name: en['controlPanel.proxy.check'] }).click();
    await item
      .getByRole('status')
      .filter({ hasText: /The target answered 200 in \d+ ms\./ })
      .waitFor();

    await panel.getByRole('button', { name: en['controlPanel.proxy.addStream'] }).click();
    const newStream = page.getByRole('dialog', { name: en['controlPanel.proxy.newStream'] });
    await newStream.getByLabel(en['controlPanel.proxy.port']).fill('2222');
    await newStream.getByLabel(en['controlPanel.proxy.targetHost']).fill('192.168.1.50');
    await newStream.getByLabel(en['controlPanel.proxy.targetPort']).fill('22');
    await newStream.getByRole('button', { name: en['controlPanel.proxy.save'] }).click();
    await panel.getByRole('listitem').filter({ hasText: '2222/tcp' }).waitFor();

    await panel.getByRole('button', { name: en['controlPanel.proxy.addRedirect'] }).click();
    const newRedirect = page.getByRole('dialog', { name: en['controlPanel.proxy.newRedirect'] });
    await newRedirect.getByLabel(en['controlPanel.proxy.domains']).fill('old.local');
    await newRedirect.getByLabel(en['controlPanel.proxy.destination']).fill('https://camera.local/');
    await newRedirect.getByLabel(en['controlPanel.proxy.destination']).press('Enter');
    await panel.getByRole('listitem').filter({ hasText: 'old.local → https://camera.local/ (301)' }).waitFor();

    // Editing a redirect: the dialog starts from what is kept; by keyboard only.
    await panel.getByRole('listitem').filter({ hasText: 'old.local' }).getByRole('button', { name: en['controlPanel.proxy.edit'] }).focus();
    await page.keyboard.press('Enter');
    const editRedirect = page.getByRole('dialog', { name: en['controlPanel.proxy.editRedirect'] });
    expect(await editRedirect.getByLabel(en['controlPanel.proxy.domains']).inputValue()).to.equal('old.local');
    expect(await controlsPastViewport(page)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('control-panel-proxy-redirect') });
    await editRedirect.getByLabel(en['controlPanel.proxy.destination']).fill('https://cam.local/');
    await editRedirect.getByLabel(en['controlPanel.proxy.redirectStatus']).selectOption('308');
    await editRedirect.getByLabel(en['controlPanel.proxy.preservePath']).uncheck();
    await editRedirect.getByLabel(en['controlPanel.proxy.destination']).press('Enter');
    await panel.getByRole('listitem').filter({ hasText: 'old.local → https://cam.local/ (308)' }).waitFor();

    await panel.getByRole('listitem').filter({ hasText: '2222/tcp' }).getByRole('button', { name: en['controlPanel.proxy.edit'] }).click();
    const editStream = page.getByRole('dialog', { name: en['controlPanel.proxy.editStream'] });
    expect(await editStream.getByLabel(en['controlPanel.proxy.targetHost']).inputValue()).to.equal('192.168.1.50');
    expect(await controlsPastViewport(page)).to.deep.equal([]);
    await editStream.getByLabel(en['controlPanel.proxy.port']).fill('2223');
    await editStream.getByRole('checkbox', { name: 'UDP' }).check();
    await editStream.getByRole('button', { name: en['controlPanel.proxy.save'] }).click();
    await panel.getByRole('listitem').filter({ hasText: '2223/tcp+udp' }).waitFor();

    await panel.getByLabel(en['controlPanel.proxy.unknownNames']).selectOption('notFound');
    await panel.getByRole('button', { name: en['controlPanel.proxy.save'] }).click();
    await panel.getByRole('status').filter({ hasText: en['controlPanel.proxy.saved'] }).waitFor();
    expect(await controlsPastViewport(page)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('control-panel-proxy'), fullPage: true });

    await item.getByRole('button', { name: en['controlPanel.proxy.remove'] }).click();
    const confirm = page.getByRole('dialog', { name: en['controlPanel.proxy.removeTitle'] });
    await confirm.getByText('camera.local will no longer be published').waitFor();
    await confirm.getByRole('button', { name: en['controlPanel.proxy.remove'] }).click();
    await item.waitFor({ state: 'detached' });
    const settings = await (await box.signIn()).api.proxy.settings();
    expect(settings.hosts).to.deep.equal([]);
    expect(settings.streams.map((s) => [s.port, s.protocols])).to.deep.equal([[2223, ['tcp', 'udp']]]);
    expect(settings.redirects.map((r) => [r.destination, r.status, r.preservePath])).to.deep.equal([['https://cam.local/', 308, false]]);
    expect(settings.unknownNames).to.equal('notFound');
    await context.close();
  });

  it('adds and deletes a stream in German by keyboard only: the first field has the focus, Escape keeps, Enter confirms', async () => {
    // The desktop speaks the signed-in user's language (read on each load); the other tests here want English back.
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    try {
      const { context, page, panel } = await openControlPanelSection(browser, box, 'proxy', { locale: 'de-DE' });
      await panel.getByRole('button', { name: de['controlPanel.proxy.addStream'] }).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: de['controlPanel.proxy.newStream'] });
      await dialog.waitFor();
      expect(await dialog.getByLabel(de['controlPanel.proxy.port']).evaluate((el) => el === document.activeElement)).to.equal(true);
      await page.keyboard.type('2300');
      await page.keyboard.press('Tab');
      await page.keyboard.type('192.168.1.60');
      // An address: no spelling check, no capital first letter.
      const address = dialog.getByLabel(de['controlPanel.proxy.targetHost']);
      expect([await address.getAttribute('spellcheck'), await address.getAttribute('autocapitalize')]).to.deep.equal(['false', 'none']);
      await page.keyboard.press('Tab');
      await page.keyboard.type('22');
      expect(await controlsPastViewport(page)).to.deep.equal([]);
      await page.keyboard.press('Enter');
      const row = panel.getByRole('listitem').filter({ hasText: '2300/tcp' });
      await row.waitFor();

      const remove = row.getByRole('button', { name: de['controlPanel.proxy.remove'] });
      await remove.focus();
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('dialog', { name: de['controlPanel.proxy.removeTitle'] });
      await confirm.getByText(de['controlPanel.proxy.removeStreamWarning'].replace('{port}', '2300')).waitFor();
      expect(await controlsPastViewport(page)).to.deep.equal([]);
      await page.screenshot({ path: screenshotPath('control-panel-proxy-remove-de') });
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'detached' });
      expect(await row.count()).to.equal(1);
      await remove.focus();
      await page.keyboard.press('Enter');
      await confirm.getByRole('button', { name: de['controlPanel.proxy.remove'] }).focus();
      await page.keyboard.press('Enter');
      await row.waitFor({ state: 'detached' });
      const settings = await (await box.signIn()).api.proxy.settings();
      expect(settings.streams.map((s) => s.port)).to.not.include(2300);
      await context.close();
    } finally {
      await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });

  it('asks before following a #proxy= link, names its host, and opens the ticket where the box decides', async () => {
    const admin = await box.signIn();
    await admin.api.proxy.createHost({
      body: {
        domains: ['app.local'],
        target: { scheme: 'http', host: '127.0.0.1', port: 9 },
        tls: { mode: 'none' },
        signIn: { enabled: true, userIds: [], groupIds: [] },
      },
    });
    const context = await browser.newContext({ viewport: phoneViewport, locale: 'en-US' });
    const page = await context.newPage();
    // The proxy host is not served in this test: the browser's requests to it are answered here.
    const opened: string[] = [];
    await page.route(/^https?:\/\/app\.local(:\d+)?\//, async (route) => {
      opened.push(route.request().url());
      await route.fulfill({ status: 200, body: 'on the host' });
    });
    const tickets: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/proxy/tickets')) tickets.push(request.url());
    });
    await signInThroughPage(page, box.url, 'admin', adminPassword);
    // The visitor arrives from the host with a fresh page load, not a change of the fragment.
    const arrive = async (link: string) => {
      await page.goto('about:blank');
      await page.goto(`${box.url}/#proxy=${link}`);
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      return dialog;
    };

    // A link names a port and scheme of its own: the desktop asks first, naming the host; Escape says no.
    const asked = await arrive('https://app.local:9999/photos?album=1');
    expect(await asked.textContent())
      .to.include('app.local')
      .and.include(en['proxy.return.confirm'].split('{host}')[0] ?? '');
    expect(await controlsPastViewport(page)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('proxy-return-confirm-phone') });
    // Cancel has the focus: Enter or Escape right away never follows the link.
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).to.equal(enDesktop['desktop.cancel']);
    await page.keyboard.press('Escape');
    await asked.waitFor({ state: 'detached' });
    expect(new URL(page.url()).origin).to.equal(box.url);
    expect(new URL(page.url()).hash).to.equal('');
    expect(tickets).to.deep.equal([]);
    expect(opened).to.deep.equal([]);

    // Yes by keyboard: the ticket goes to the host's own scheme and the proxy's port (http, 8080), not the link's.
    await arrive('https://app.local:9999/photos?album=1');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.origin === 'http://app.local:8080');
    expect(tickets).to.have.length(1);
    expect(opened).to.have.length(1);
    expect(opened[0]).to.match(/^http:\/\/app\.local:8080\/\.cellar\/ticket\?ticket=[\w-]+$/);

    // A name no protected host answers for: after the yes, the desktop says so.
    const unknown = await arrive('http://nothing.local/');
    await unknown.getByRole('button', { name: en['proxy.return.open'] }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: en['proxy.return.failed'].split(':')[0] ?? '' })
      .waitFor();
    await context.close();
  });

  it('asks in German before following a #proxy= link', async () => {
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    const context = await browser.newContext({ viewport: phoneViewport, locale: 'de-DE' });
    try {
      const page = await context.newPage();
      await signInThroughPage(page, box.url, 'admin', adminPassword);
      await page.goto('about:blank');
      await page.goto(`${box.url}/#proxy=https://app.local/`);
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      expect(await dialog.textContent()).to.include(de['proxy.return.confirm'].replaceAll('{host}', 'app.local'));
      await dialog.getByRole('button', { name: de['proxy.return.open'] }).waitFor();
      expect(await controlsPastViewport(page)).to.deep.equal([]);
      await dialog.getByRole('button', { name: deDesktop['desktop.cancel'] }).click();
      await dialog.waitFor({ state: 'detached' });
    } finally {
      await context.close();
      await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });
});
