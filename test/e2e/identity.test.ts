import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import { generate } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import cpDe from '../../web/src/apps/control-panel/i18n/de.json' with { type: 'json' };
import cpEn from '../../web/src/apps/control-panel/i18n/en.json' with { type: 'json' };
import accountDe from '../../web/src/apps/personal-settings/i18n/de.json' with { type: 'json' };
import accountEn from '../../web/src/apps/personal-settings/i18n/en.json' with { type: 'json' };
import shellDe from '../../web/src/lib/i18n/de.json' with { type: 'json' };
import { expectText, screenshotPath, signInThroughPage, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { adminPassword, type TestDaemon } from '../helpers/daemon.ts';

const userId = async (box: TestDaemon, username: string): Promise<number> => {
  const [rows] = await box.daemon.db.query('SELECT id FROM users WHERE username = ?', { replacements: [username] });
  return (rows as { id: number }[])[0]!.id;
};

const fill = (text: string, params: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));

/**
 * The identity UI end to end: an administrator creates a user in the Control Panel (refusals in
 * words), the user (German) enrols two-step sign-in in the personal settings with a code computed
 * here from the secret on screen, keeps the recovery codes, and signs in with a code and with a
 * recovery code. The tests run in order and share the box.
 */
describe('e2e: users, personal settings and two-step sign-in', function () {
  this.timeout(90_000);
  let box: TestDaemon;
  let browser: Browser;
  let admin: BrowserContext;
  let adminPage: Page;
  let alice: BrowserContext;
  let alicePage: Page;
  const alicePassword = 'Walnut-Harbour-73';
  let secret = '';
  let recoveryCodes: string[] = [];

  before(async () => {
    ({ box, browser } = await startBrowserBox());
    admin = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    adminPage = await admin.newPage();
    // German browser for alice: sign-in and her desktop speak German.
    alice = await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    alicePage = await alice.newPage();
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
  });

  const cp = (p: Page) => p.getByRole('tabpanel');
  // App windows are dialogs too; the modal one is the native <dialog> the app opened.
  const dialog = (p: Page) => p.locator('dialog[open]');

  it('lets an administrator create a user, refusing a weak password in words', async () => {
    const p = adminPage;
    await signInThroughPage(p, box.url, 'admin', adminPassword);
    await p.goto(`${box.url}/app/org.service.control-panel/users`);
    await cp(p).getByRole('button', { name: 'admin', exact: true }).waitFor();
    // The sidebar lists the sections as tabs; Users is open.
    expect(await p.getByRole('tab', { name: cpEn['controlPanel.section.users'] }).getAttribute('aria-selected')).to.equal('true');

    await p.getByRole('button', { name: cpEn['controlPanel.users.create'] }).click();
    const d = dialog(p);
    await d.getByLabel(cpEn['controlPanel.users.username']).fill('alice');
    await d.getByLabel(cpEn['controlPanel.users.displayName']).fill('Alice Example');
    await d.getByLabel(cpEn['controlPanel.password.new'], { exact: true }).fill('password123');
    await d.getByLabel(cpEn['controlPanel.password.repeat']).fill('password123');
    await d.getByLabel(cpEn['controlPanel.users.language']).selectOption('de');
    await d.getByRole('button', { name: cpEn['controlPanel.users.createSubmit'] }).click();
    await expectText(d.getByRole('alert'), accountEn['error.auth.password.weak.common']);
    await p.screenshot({ path: screenshotPath('identity-create-user-weak-en') });

    await d.getByLabel(cpEn['controlPanel.password.new'], { exact: true }).fill(alicePassword);
    await d.getByLabel(cpEn['controlPanel.password.repeat']).fill(alicePassword);
    await d.getByRole('button', { name: cpEn['controlPanel.users.createSubmit'] }).click();
    await expectText(p.getByRole('status').filter({ hasText: 'alice' }), fill(cpEn['controlPanel.users.created'], { username: 'alice' }));
    const row = cp(p)
      .getByRole('row')
      .filter({ has: p.getByRole('button', { name: 'alice', exact: true }) });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).to.deep.include.members(['Alice Example', 'No']);
    const created = (await box.daemon.db.query("SELECT language FROM users WHERE username = 'alice'"))[0] as { language: string }[];
    expect(created[0]?.language).to.equal('de');
    await p.screenshot({ path: screenshotPath('identity-users-en') });
  });

  it('shows the box refusals in words: deactivating yourself, deleting a home, the last administrator', async () => {
    const p = adminPage;
    // Select the own row with the keyboard: Home moves to the first user, Enter opens it.
    await cp(p).getByRole('button', { name: 'alice', exact: true }).focus();
    await p.keyboard.press('Home');
    expect(await p.evaluate(() => document.activeElement?.textContent?.trim())).to.equal('admin');
    await p.keyboard.press('Enter');
    const d = dialog(p);
    await d.getByLabel(cpEn['controlPanel.users.activeLabel']).uncheck();
    await d.getByRole('button', { name: cpEn['controlPanel.save'] }).click();
    // Deactivating asks first.
    await d.getByText(fill(cpEn['controlPanel.users.deactivateConfirm'], { username: 'admin' })).waitFor();
    await d.getByRole('button', { name: cpEn['controlPanel.users.deactivate'] }).click();
    await expectText(d.getByRole('alert'), cpEn['error.users.self.deactivate']);
    await p.screenshot({ path: screenshotPath('identity-refusal-self-deactivate-en') });
    await p.keyboard.press('Escape');
    await d.waitFor({ state: 'detached' });

    // Deleting alice's home needs her name typed, and the box has no homes yet: refused in words.
    await cp(p).getByRole('button', { name: 'alice', exact: true }).click();
    await p.getByRole('button', { name: cpEn['controlPanel.users.delete'], exact: true }).click();
    await d.getByLabel(cpEn['controlPanel.users.home.delete']).check();
    const submit = d.getByRole('button', { name: cpEn['controlPanel.users.deleteSubmit'] });
    expect(await submit.isDisabled()).to.equal(true);
    await d.getByLabel(fill(cpEn['controlPanel.users.deleteConfirm'], { username: 'alice' })).fill('alice');
    await submit.click();
    await expectText(d.getByRole('alert'), cpEn['error.users.home.unavailable']);
    await d.getByRole('button', { name: cpEn['controlPanel.cancel'] }).click();
    await d.waitFor({ state: 'detached' });

    // Permissions of the administrator: taking the own admin right away would leave no administrator.
    const adminId = await userId(box, 'admin');
    await p.goto(`${box.url}/app/org.service.control-panel/permissions/user/${adminId}`);
    const adminRight = p.getByRole('checkbox', { name: cpEn['controlPanel.right.admin'] });
    await adminRight.waitFor();
    expect(await adminRight.isChecked()).to.equal(true);
    await adminRight.uncheck();
    await p.getByRole('button', { name: cpEn['controlPanel.save'] }).click();
    await expectText(p.getByRole('alert'), cpEn['error.users.admin.last']);
    await p.screenshot({ path: screenshotPath('identity-permissions-refusal-en') });
  });

  it('grants a right to a user in the Permissions section and shows the effective result', async () => {
    const p = adminPage;
    const aliceId = await userId(box, 'alice');
    await p.getByLabel(cpEn['controlPanel.permissions.subject']).selectOption(`user/${aliceId}`);
    const sftp = p.getByRole('checkbox', { name: cpEn['controlPanel.right.sftp'] });
    await sftp.waitFor();
    expect(await sftp.isChecked()).to.equal(false);
    await sftp.check();
    await p.getByRole('button', { name: cpEn['controlPanel.save'] }).click();
    await expectText(p.getByRole('status').filter({ hasText: cpEn['controlPanel.permissions.saved'] }), cpEn['controlPanel.permissions.saved']);
    const row = p.getByRole('row').filter({ hasText: cpEn['controlPanel.right.sftpDescription'] });
    expect(await row.getByRole('cell').last().textContent()).to.equal(cpEn['controlPanel.yes']);
    const grants = await (await box.signIn()).api.permissions.userGrants({ params: { userId: aliceId } });
    expect(grants.own).to.include('sftp');
    await p.screenshot({ path: screenshotPath('identity-permissions-en') });
  });

  it('lets the new user enrol two-step sign-in with the QR code and keep the recovery codes', async () => {
    const p = alicePage;
    await p.goto(box.url);
    await p.getByLabel(shellDe['signIn.username']).fill('alice');
    await p.getByLabel(shellDe['signIn.password']).fill(alicePassword);
    await p.getByRole('button', { name: shellDe['signIn.submit'] }).click();
    await p.getByRole('button', { name: shellDe['taskbar.signOut'] }).waitFor();

    await p.goto(`${box.url}/app/org.service.settings/two-step`);
    await p.getByText(accountDe['account.totp.stateOff']).waitFor();
    await p.getByRole('button', { name: accountDe['account.totp.enroll'] }).click();
    const qr = p.getByRole('img', { name: accountDe['account.totp.qrAlt'] });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).to.match(/^data:image\/png;base64,/);
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).to.be.greaterThan(50);
    secret = (await p.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).to.match(/^[A-Z2-7]{16,}$/);
    await p.screenshot({ path: screenshotPath('identity-totp-enrol-de') });

    // A wrong code is refused in words; the code the app would show turns it on.
    const code = p.getByLabel(accountDe['account.totp.code']);
    await code.fill('000000' === (await generate({ secret })) ? '111111' : '000000');
    await p.getByRole('button', { name: accountDe['account.totp.confirm'] }).click();
    await expectText(p.getByRole('alert'), shellDe['error.auth.totp.invalid']);
    await code.fill(await generate({ secret }));
    await p.getByRole('button', { name: accountDe['account.totp.confirm'] }).click();

    const list = p.getByRole('list', { name: accountDe['account.totp.codesLabel'] });
    await list.waitFor();
    recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(recoveryCodes).to.have.length(10);
    expect(await p.getByText(accountDe['account.totp.stateOn']).isVisible()).to.equal(true);

    const [download] = await Promise.all([p.waitForEvent('download'), p.getByRole('button', { name: accountDe['account.totp.download'] }).click()]);
    expect(download.suggestedFilename()).to.match(/^recovery-codes-alice-.+\.txt$/);
    const text = await readFile((await download.path())!, 'utf8');
    for (const c of recoveryCodes) expect(text).to.include(c);
    expect(text).to.include(fill(accountDe['account.totp.fileTitle'], { username: 'alice', host: '127.0.0.1' }));
    await p.screenshot({ path: screenshotPath('identity-recovery-codes-de') });
    await p.getByRole('button', { name: accountDe['account.totp.done'] }).click();
    await p.getByRole('heading', { name: accountDe['account.totp.disableHeading'] }).waitFor();
  });

  it('signs out and in again with a code of the authenticator', async () => {
    const p = alicePage;
    await p.getByRole('button', { name: shellDe['taskbar.signOut'] }).click();
    await p.getByLabel(shellDe['signIn.username']).fill('alice');
    await p.getByLabel(shellDe['signIn.password']).fill(alicePassword);
    await p.getByRole('button', { name: shellDe['signIn.submit'] }).click();
    await p.getByRole('heading', { name: shellDe['signIn.totpTitle'] }).waitFor();
    // The confirmation used the current time step; the next one is still within the box's tolerance.
    await p.getByLabel(shellDe['signIn.totpCode']).fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await p.screenshot({ path: screenshotPath('identity-sign-in-totp-de') });
    await p.getByRole('button', { name: shellDe['signIn.totpSubmit'] }).click();
    await p.getByRole('button', { name: shellDe['taskbar.signOut'] }).waitFor();
  });

  it('signs in with a recovery code, explains what it did to two-step sign-in, and refuses the code a second time', async () => {
    const p = alicePage;
    const recoverWith = async (code: string) => {
      await p.getByRole('button', { name: shellDe['signIn.useRecoveryCode'] }).click();
      await p.getByRole('heading', { name: shellDe['signIn.recoverTitle'] }).waitFor();
      await p.getByLabel(shellDe['signIn.username']).fill('alice');
      await p.getByLabel(shellDe['signIn.password']).fill(alicePassword);
      await p.getByRole('textbox', { name: shellDe['signIn.recoveryCode'], exact: true }).fill(code);
      await p.getByRole('button', { name: shellDe['signIn.recoverSubmit'] }).click();
    };
    await p.getByRole('button', { name: shellDe['taskbar.signOut'] }).click();
    await recoverWith(recoveryCodes[0]!);
    await expectText(p.getByRole('status'), fill(shellDe['signIn.recoveredUsed'], { count: 9 }));
    expect(await p.getByText(shellDe['signIn.recoveredTotp']).isVisible()).to.equal(true);
    await p.screenshot({ path: screenshotPath('identity-recovered-de') });
    await p.getByRole('button', { name: shellDe['signIn.recoveredContinue'] }).click();
    await p.getByRole('button', { name: shellDe['taskbar.signOut'] }).click();

    await recoverWith(recoveryCodes[0]!);
    await expectText(p.getByRole('alert'), shellDe['error.auth.recovery.invalid']);
    await p.screenshot({ path: screenshotPath('identity-recovery-refused-de') });
  });

  it('changes the own password in the personal settings, naming the broken rule first', async () => {
    const p = alicePage;
    // Still on the recovery form after the refusal: another, unused code signs in.
    await p.getByLabel(shellDe['signIn.password']).fill(alicePassword);
    await p.getByRole('textbox', { name: shellDe['signIn.recoveryCode'], exact: true }).fill(recoveryCodes[1]!);
    await p.getByRole('button', { name: shellDe['signIn.recoverSubmit'] }).click();
    await expectText(p.getByRole('status'), fill(shellDe['signIn.recoveredUsed'], { count: 8 }));
    await p.getByRole('button', { name: shellDe['signIn.recoveredContinue'] }).click();
    await p.getByRole('button', { name: shellDe['taskbar.signOut'] }).waitFor();

    await p.goto(`${box.url}/app/org.service.settings/password`);
    const current = p.getByLabel(accountDe['account.password.current']);
    await current.waitFor();
    await current.fill(alicePassword);
    await p.getByLabel(accountDe['account.password.new'], { exact: true }).fill('alice2');
    await p.getByLabel(accountDe['account.password.repeat']).fill('alice2');
    await p.getByRole('button', { name: accountDe['account.password.submit'] }).click();
    await expectText(p.getByRole('alert'), fill(accountDe['error.auth.password.weak.too_short'], { minLength: 10 }));
    await p.screenshot({ path: screenshotPath('identity-password-weak-de') });

    await p.getByLabel(accountDe['account.password.new'], { exact: true }).fill('Quiet-Lantern-58');
    await p.getByLabel(accountDe['account.password.repeat']).fill('Quiet-Lantern-58');
    await p.getByRole('button', { name: accountDe['account.password.submit'] }).click();
    await expectText(p.getByRole('status').filter({ hasText: accountDe['account.password.changed'] }), accountDe['account.password.changed']);
    // The box really took it: a fresh sign-in with the new password reaches the code step.
    const answer = await fetch(`${box.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: 'Quiet-Lantern-58' }),
    });
    expect(await answer.json()).to.deep.equal({ state: 'totpRequired' });
  });

  it('speaks German in the Control Panel for a German administrator; groups with the built-in one read-only', async () => {
    await box.daemon.db.query("UPDATE users SET language = 'de' WHERE username = 'admin'");
    await admin.close();
    admin = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    const p = await admin.newPage();
    await signInThroughPage(p, box.url, 'admin', adminPassword);
    await p.goto(`${box.url}/app/org.service.control-panel/groups`);
    await p.getByRole('tab', { name: cpDe['controlPanel.section.groups'] }).waitFor();
    await cp(p).getByRole('button', { name: 'users', exact: true }).click();
    // The built-in group is read-only: edit and delete stay off, with the reason shown.
    expect(await p.getByRole('button', { name: cpDe['controlPanel.groups.edit'] }).isDisabled()).to.equal(true);
    expect(await p.getByText(cpDe['controlPanel.groups.builtInHint']).isVisible()).to.equal(true);

    await p.getByRole('button', { name: cpDe['controlPanel.groups.create'] }).click();
    const d = dialog(p);
    await d.getByLabel(cpDe['controlPanel.groups.name']).fill('family');
    await d.getByLabel(cpDe['controlPanel.groups.description']).fill('Fotos und Dokumente');
    await d.getByRole('checkbox', { name: 'alice' }).check();
    await d.getByRole('button', { name: cpDe['controlPanel.groups.createSubmit'] }).click();
    const row = cp(p)
      .getByRole('row')
      .filter({ has: p.getByRole('button', { name: 'family', exact: true }) });
    await row.waitFor();
    expect(await row.getByRole('cell').last().textContent()).to.equal('alice');
    await p.screenshot({ path: screenshotPath('identity-groups-de') });

    await row.getByRole('button', { name: 'family', exact: true }).click();
    await p.getByRole('button', { name: cpDe['controlPanel.groups.delete'] }).click();
    await d.getByText(fill(cpDe['controlPanel.groups.deleteIntro'], { name: 'family', count: 1 })).waitFor();
    await d.getByRole('button', { name: cpDe['controlPanel.groups.deleteSubmit'] }).click();
    await expectText(p.getByRole('status').filter({ hasText: 'family' }), fill(cpDe['controlPanel.groups.deleted'], { name: 'family' }));

    await p.goto(`${box.url}/app/org.service.control-panel/users`);
    await cp(p).getByRole('button', { name: 'alice', exact: true }).waitFor();
    await p.screenshot({ path: screenshotPath('identity-users-de') });
  });
});
