import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import de from '../../web/src/apps/overview/i18n/de.json' with { type: 'json' };
import en from '../../web/src/apps/overview/i18n/en.json' with { type: 'json' };
import { fill } from '../helpers/app-packages.ts';
import { phoneViewport, screenshotPath, signInThroughPage, startBrowserBox, type BrowserBox } from '../helpers/browser.ts';
import { adminPassword, type TestClient } from '../helpers/daemon.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';
import { until } from '../helpers/until.ts';
import { accounts, FileServicesBox, password, smbPort } from '../system/file-services-fixture.ts';

const overview = '/app/org.service.overview';

/**
 * Overview's "who uses the box": the administrator signed in to the desktop, and a real SMB session
 * (smbclient holding a share open) on a real smbd on loopback whose configuration the daemon writes.
 */
describe('e2e: Overview shows who is signed in and the open SMB sessions (smbd on loopback)', function () {
  this.timeout(180_000);
  const services = new FileServicesBox();
  let started: BrowserBox | undefined;
  let admin: TestClient;
  let client: ChildProcess | undefined;

  before(async () => {
    if (process.getuid?.() !== 0) throw new Error('this test needs root (smbd, system accounts)');
    await services.setUp();
    started = await startBrowserBox({ daemon: { fileServices: { deployment: services.deployment() } } });
    admin = await started.box.signIn();
    await admin.api.users.create({ body: { username: accounts.writer, password: 'Writer-password-1', admin: true, smb: true } });
    // A new share is offered over SMB without being asked.
    await makeShare(admin, 'Family');
    await until('smbd offering Family', () => readFileSync(services.smbConf, 'utf8').includes('[Family]'));
    // smbclient reading its commands from a pipe keeps its session and the share open until its input ends.
    client = spawn('smbclient', ['//127.0.0.1/Family', '-p', String(smbPort), '-U', `${accounts.writer}%${password}`], { stdio: ['pipe', 'pipe', 'pipe'] });
    let said = '';
    client.stdout!.on('data', (d: Buffer) => (said += d.toString()));
    client.stderr!.on('data', (d: Buffer) => (said += d.toString()));
    // Its output is buffered while it runs on a pipe: smbd's own word (the API's answer) says the session is open.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { smb } = await admin.api.systemOverview.sessions();
      if (smb.state === 'ok' && smb.sessions.some((x) => x.username.endsWith(accounts.writer) && x.shares.includes('Family'))) break;
      if (Date.now() > deadline || client.exitCode !== null) throw new Error(`no SMB session: ${JSON.stringify(smb)} ${said}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  after(async () => {
    if (client && client.exitCode === null) {
      const exited = new Promise((resolve) => client!.once('exit', resolve));
      client.stdin!.end('exit\n');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (client.exitCode === null) client.kill('SIGKILL');
    }
    await started?.browser.close();
    await started?.box.close();
    await services.tearDown();
    removeTempFolders();
  });

  it('answers the sessions through the API: the administrator on the desktop, the SMB user with the share open', async () => {
    const sessions = await admin.api.systemOverview.sessions();
    expect(sessions.desktop.find((u) => u.username === 'admin')?.sessions).to.be.at.least(1);
    expect(sessions.smb.state).to.equal('ok');
    const smb = sessions.smb.state === 'ok' ? sessions.smb.sessions : [];
    expect(smb.find((s) => s.username.endsWith(accounts.writer))).to.deep.include({ client: '127.0.0.1', shares: ['Family'] });
  });

  const views = [
    { language: 'en', dict: en, viewport: { width: 1366, height: 820 }, phone: false },
    { language: 'de', dict: de, viewport: phoneViewport, phone: true },
  ] as const;

  for (const view of views) {
    it(`shows both on Overview, each with a way to the app that manages it (${view.language}, ${view.viewport.width} px)`, async () => {
      await started!.box.daemon.db.query('UPDATE users SET language = ? WHERE username = ?', { replacements: [view.language, 'admin'] });
      const context = await started!.browser.newContext({ locale: view.language, viewport: view.viewport, hasTouch: view.phone, isMobile: view.phone });
      try {
        const page = await context.newPage();
        await signInThroughPage(page, started!.box.url, 'admin', adminPassword);
        await page.goto(`${started!.box.url}${overview}`);
        const region = page.getByRole('region', { name: view.dict['overview.sessions.title'] });
        const desktop = region.getByRole('article', { name: view.dict['overview.sessions.desktop'] });
        await desktop.getByText('Administrator').waitFor({ timeout: 15_000 });
        const smb = region.getByRole('article', { name: view.dict['overview.sessions.smb'] });
        await smb.getByText(accounts.writer, { exact: false }).waitFor();
        expect(await smb.innerText()).to.contain('Family');
        expect(await smb.innerText()).to.contain(fill(view.dict['overview.sessions.from'], { client: '127.0.0.1', protocol: '' }).split('(')[0]!.trim());
        const offscreen = await page.evaluate(
          () =>
            [...document.querySelectorAll('.sessions li, .sessions button')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5).length,
        );
        expect(offscreen).to.equal(0);
        await region.screenshot({ path: screenshotPath(`overview-sessions-${view.language}-${view.viewport.width}`) });
        // The user's line opens the Control Panel at that user.
        await desktop.getByRole('button', { name: fill(view.dict['overview.sessions.openUser'], { user: 'admin' }) }).click();
        await page.waitForURL(/org\.service\.control-panel\/users\/\d+/);
      } finally {
        await context.close();
        await started!.box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
      }
    });
  }
});
