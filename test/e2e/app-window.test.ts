import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import desktopEn from '../../web/src/desktop/i18n/en.json' with { type: 'json' };
import { buildAppPackage } from '../../build/scripts/build-app-package.js';
import { screenshotPath, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import type { TestClient, TestDaemon } from '../helpers/daemon.ts';
import { eventually, openDesktop } from '../helpers/desktop.ts';
import { finished } from '../helpers/file-operations.ts';
import { insertUser } from '../helpers/users.ts';

/** The example app installed on the box, opened by a plain user from the start menu. */
describe('e2e: an installed app in its window, sandboxed', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;
  let admin: TestClient;
  let desk: { context: BrowserContext; page: Page };
  let built: string;
  let frame: Frame;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    admin = await box.signIn();
    await insertUser(box, 'uma', 'uma-password-1');
    built = await buildAppPackage('examples/hello-app', await mkdtemp(path.join(tmpdir(), 'cellar-e2e-app-')));
    const preview = await admin.api.apps.uploadPackage({ body: readFileSync(built) });
    const job = await finished(admin, (await admin.api.apps.install({ params: { packageId: preview.packageId }, body: { pool: 'tank' } })).id);
    expect(job.state).to.equal('succeeded');
    desk = await openDesktop(browser, box.url, { username: 'uma', password: 'uma-password-1' });
  });

  after(async () => {
    await stopBrowserBox({ browser, box });
    if (built) await rm(path.dirname(built), { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await desk.page.screenshot({ path: screenshotPath('app-window-failure') });
  });

  /** Opens the app from the start menu and waits for its greeting, which needs its host token. */
  const openHello = async () => {
    const { page } = desk;
    await page.keyboard.press('Alt+Shift+KeyS');
    const menu = page.getByRole('menu', { name: desktopEn['start.title'] });
    await menu.getByRole('menuitem', { name: 'Hello' }).click();
    await page.locator('iframe[title="Hello"]').waitFor();
    await page.frameLocator('iframe[title="Hello"]').getByRole('heading', { name: 'Hello, uma' }).waitFor();
  };

  it('opens from the start menu, greets its user through the API for apps and counts the visit in its backend', async () => {
    const { page } = desk;
    await openHello();
    expect(await page.locator('iframe[title="Hello"]').getAttribute('sandbox')).to.equal('allow-scripts allow-forms allow-downloads');
    // Its backend counted the visit, reached through the box with the window's backend token.
    await page.frameLocator('iframe[title="Hello"]').getByLabel('Visits').getByText('#1').waitFor();
    const found = page.frames().find((f) => f.url().includes('/frontends/org.example.hello/'));
    if (!found) throw new Error('the app frame is not there');
    frame = found;
  });

  it('sends its notification through the app API, stored for its user as app.message', async () => {
    await desk.page.frameLocator('iframe[title="Hello"]').getByRole('button', { name: 'Send me a notification' }).click();
    await desk.page.frameLocator('iframe[title="Hello"]').getByRole('status').getByText('Sent.').waitFor();
    const uma = await box.signIn('uma', 'uma-password-1');
    const list = await uma.api.notifications.list();
    expect(list.items[0]).to.deep.include({ type: 'app.message', appId: 'org.example.hello', title: 'Hello from the Hello app' });
  });

  it('cannot read the desktop’s cookies, storage or page, nor call the API with the session', async () => {
    // Sent as source text: the test's compiler would wrap a function with helpers the page does not have.
    const probe = (await frame.evaluate(`(async () => {
      const attempt = (read) => {
        try {
          return 'read: ' + String(read());
        } catch (err) {
          return 'blocked: ' + err.name;
        }
      };
      const users = await fetch('/api/users').then((res) => 'status ' + res.status, () => 'blocked');
      return {
        origin: self.origin,
        cookie: attempt(() => document.cookie),
        storage: attempt(() => window.localStorage.length),
        parent: attempt(() => window.parent.document.title),
        users,
      };
    })()`)) as { origin: string; cookie: string; storage: string; parent: string; users: string };
    expect(probe.origin).to.equal('null');
    expect(probe.cookie).to.equal('blocked: SecurityError');
    expect(probe.storage).to.equal('blocked: SecurityError');
    expect(probe.parent).to.equal('blocked: SecurityError');
    // Without a session cookie the API refuses, and without CORS the page cannot even read that.
    expect(probe.users).to.be.oneOf(['blocked', 'status 401']);
  });

  it('ends the window’s tokens when its user closes the window', async () => {
    // The example page keeps its token and window id in script-wide variables.
    const held = (await frame.evaluate('({ token, instanceId })')) as { token: string; instanceId: string };
    const asWindow = () => fetch(`${box.url}/api/app/me`, { headers: { Authorization: `Bearer ${held.token}`, 'X-Cellar-Instance': held.instanceId } });
    expect((await asWindow()).status).to.equal(200);
    await desk.page.locator('[data-app="org.example.hello"]').getByRole('button', { name: desktopEn['wm.close'] }).click();
    await eventually(
      async () => (await asWindow()).status,
      (status) => status === 401,
      'the closed window’s token refused',
    );
    await openHello();
  });

  it('loses the window’s app when an administrator switches the app off', async () => {
    await admin.api.apps.update({ params: { appId: 'org.example.hello' }, body: { enabled: false } });
    await eventually(
      () => desk.page.locator('iframe[title="Hello"]').count(),
      (n) => n === 0,
      'the app frame gone after disabling',
    );
    await desk.page.getByText(desktopEn['wm.notAllowed.title']).waitFor();
  });
});
