import path from 'node:path';
import { expect } from 'chai';
import { generate } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import de from '../../web/src/lib/i18n/de.json' with { type: 'json' };
import en from '../../web/src/lib/i18n/en.json' with { type: 'json' };
import { artifacts, expectText, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { adminPassword, type TestDaemon } from '../helpers/daemon.ts';

describe('e2e: sign in to the web desktop', function () {
  this.timeout(60_000);
  let box: TestDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    ({ box, browser } = await startBrowserBox());
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
  });

  const open = async (locale = 'en-US'): Promise<Page> => {
    context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await page.goto(box.url);
    return page;
  };

  afterEach(async function () {
    const name = (this.currentTest?.title ?? 'test').replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    if (page && !page.isClosed()) await page.screenshot({ path: path.join(artifacts, `sign-in-${name}.png`) });
    await context?.close();
  });

  async function signIn(p: Page, password = adminPassword): Promise<void> {
    await p.getByLabel(en['signIn.username']).fill('admin');
    await p.getByLabel(en['signIn.password']).fill(password);
    await p.getByRole('button', { name: en['signIn.submit'] }).click();
  }

  it('shows the localised error for a wrong password and stays on the sign-in page', async () => {
    const p = await open();
    expect(await p.locator('html').getAttribute('lang')).to.equal('en');
    await signIn(p, 'not the password');
    await expectText(p.getByRole('alert'), en['error.auth.credentials.invalid']);
    expect(await p.getByRole('navigation', { name: en['taskbar.label'] }).count()).to.equal(0);
    // The password field is cleared for the next try; the name stays.
    expect(await p.getByLabel(en['signIn.password']).inputValue()).to.equal('');
    expect(await p.getByLabel(en['signIn.username']).inputValue()).to.equal('admin');
  });

  it('signs in with the keyboard alone and shows the desktop with taskbar, clock and user name', async () => {
    const p = await open();
    // The name field has focus on arrival; Tab and Enter do the rest.
    await p.getByLabel(en['signIn.username']).waitFor();
    expect(await p.evaluate(() => document.activeElement?.id)).to.equal('sign-in-username');
    await p.keyboard.type('admin');
    await p.keyboard.press('Tab');
    await p.keyboard.type(adminPassword);
    await p.keyboard.press('Enter');
    const taskbar = p.getByRole('navigation', { name: en['taskbar.label'] });
    await taskbar.waitFor();
    expect(await taskbar.getByText('Administrator', { exact: true }).isVisible()).to.equal(true);
    expect(await taskbar.getByRole('button', { name: en['taskbar.signOut'] }).isVisible()).to.equal(true);
    expect(await taskbar.getByRole('button', { name: en['taskbar.start'] }).isVisible()).to.equal(true);
    expect(await taskbar.locator('time').textContent()).to.match(/^\d{1,2}:\d{2}/);
    expect(await p.getByRole('main', { name: en['desktop.label'] }).isVisible()).to.equal(true);
    expect(await p.getByLabel(en['signIn.password']).count()).to.equal(0);
  });

  it('keeps the session across a reload and signs out back to the sign-in page', async () => {
    const p = await open();
    await signIn(p);
    const signOut = p.getByRole('button', { name: en['taskbar.signOut'] });
    await signOut.waitFor();
    await p.reload();
    await signOut.waitFor();
    expect(await p.getByText('Administrator', { exact: true }).isVisible()).to.equal(true);

    await signOut.click();
    await p.getByRole('button', { name: en['signIn.submit'] }).waitFor();
    // The sign-out really ended the session on the box (it carried the CSRF header).
    const status = await p.evaluate(async () => (await fetch('/api/auth/session')).status);
    expect(status).to.equal(401);
    await p.reload();
    await p.getByRole('button', { name: en['signIn.submit'] }).waitFor();
  });

  it('returns to the sign-in page with a notice when the session ended elsewhere', async () => {
    const p = await open();
    await signIn(p);
    await p.getByRole('button', { name: en['taskbar.signOut'] }).waitFor();
    // Another tab of the same browser signs out: this tab's session is gone too.
    await p.evaluate(async () => {
      const user = (await (await fetch('/api/auth/session')).json()) as { csrfToken: string };
      await fetch('/api/auth/logout', { method: 'POST', headers: { 'X-CSRF-Token': user.csrfToken } });
    });
    await p.getByRole('button', { name: en['taskbar.signOut'] }).click();
    await p.getByRole('button', { name: en['signIn.submit'] }).waitFor();
    expect(await p.getByRole('status').textContent()).to.equal(en['error.auth.session.required']);
    expect(await p.getByRole('alert').textContent()).to.equal('');
  });

  it("speaks the browser's language before sign-in and the user's language after it", async () => {
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    try {
      const p = await open('de-DE');
      await p.getByRole('heading', { name: de['signIn.title'].replace('{product}', 'Cellar') }).waitFor();
      expect(await p.locator('html').getAttribute('lang')).to.equal('de');
      await p.getByLabel(de['signIn.username']).fill('admin');
      await p.getByLabel(de['signIn.password']).fill('wrong');
      await p.getByRole('button', { name: de['signIn.submit'] }).click();
      await expectText(p.getByRole('alert'), de['error.auth.credentials.invalid']);
      await context.close();

      // An English browser, a German user: the desktop follows the user.
      const q = await open('en-US');
      await signIn(q);
      await q.getByRole('button', { name: de['taskbar.signOut'] }).waitFor();
      expect(await q.locator('html').getAttribute('lang')).to.equal('de');
      expect(await q.getByRole('navigation', { name: de['taskbar.label'] }).isVisible()).to.equal(true);
    } finally {
      await box.daemon.db.query("UPDATE users SET language = 'en' WHERE username = 'admin'");
    }
  });
  // Last in this file: it turns two-step sign-in on for the administrator.
  it('asks for the authenticator code when the user has two-step sign-in on', async () => {
    const setup = await box.signIn();
    const { secret } = await setup.api.auth.totpEnroll();
    const now = Math.floor(Date.now() / 1000);
    await setup.api.auth.totpConfirm({ body: { code: await generate({ secret, epoch: now }) } });

    const p = await open();
    await signIn(p);
    await p.getByRole('heading', { name: en['signIn.totpTitle'] }).waitFor();
    expect(await p.evaluate(() => document.activeElement?.id)).to.equal('sign-in-code');
    // A code ten steps ahead is outside the box's tolerance: the box's refusal is shown, localised.
    await p.getByLabel(en['signIn.totpCode']).fill(await generate({ secret, epoch: now + 300 }));
    await p.getByRole('button', { name: en['signIn.totpSubmit'] }).click();
    await expectText(p.getByRole('alert'), en['error.auth.totp.invalid']);

    // The next time step's code: the confirmation used up the current one.
    await p.getByLabel(en['signIn.totpCode']).fill(await generate({ secret, epoch: now + 30 }));
    await p.getByRole('button', { name: en['signIn.totpSubmit'] }).click();
    await p.getByRole('navigation', { name: en['taskbar.label'] }).waitFor();
  });
});
