import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { TlsStore } from '../../daemon/src/areas/tls/tls-store.ts';
import en from '../../web/src/lib/i18n/en.json' with { type: 'json' };
import { assertBrowserPrerequisites, launchChromium, screenshotPath, signInThroughPage, webDir } from '../helpers/browser.ts';
import { adminPassword, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';

/**
 * A HOME whose NSS database (the store Chromium on Linux reads user-trusted roots from) trusts
 * the root as an authority for servers: the same step a person takes when installing the root.
 * Needs `certutil` (Debian's libnss3-tools).
 */
function homeTrusting(rootPem: string): string {
  const home = mkdtempSync(path.join(tmpdir(), 'cellar-nss-'));
  const db = path.join(home, '.pki', 'nssdb');
  mkdirSync(db, { recursive: true });
  const root = path.join(home, 'root.crt');
  writeFileSync(root, rootPem);
  execFileSync('certutil', ['-d', `sql:${db}`, '-N', '--empty-password'], { timeout: 30_000 });
  execFileSync('certutil', ['-d', `sql:${db}`, '-A', '-t', 'C,,', '-n', 'Cellar test root', '-i', root], { timeout: 30_000 });
  return home;
}

describe('e2e: the sign-in page over HTTPS, with the box root trusted by the browser', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let trusting: Browser;
  let untrusting: Browser;
  let home: string;
  let root: string;

  before(async () => {
    assertBrowserPrerequisites();
    box = await startTestDaemon({ webDir, https: true });
    root = new TlsStore(path.join(box.dataDir, 'tls'), path.join(box.dataDir, 'tls-secret')).readAuthority()!.rootPem;
    home = homeTrusting(root);
    trusting = await launchChromium({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home });
    untrusting = await launchChromium({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: mkdtempSync(path.join(tmpdir(), 'cellar-nss-empty-')) });
  });
  after(async () => {
    await trusting?.close();
    await untrusting?.close();
    await box?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('refuses the box in a browser that does not trust its root', async () => {
    const page = await untrusting.newPage();
    const error = await page.goto(box.url).then(
      () => null,
      (err: Error) => err.message,
    );
    expect(error).to.match(/ERR_CERT_AUTHORITY_INVALID/);
  });

  it('opens the sign-in page with the root link and fingerprint, and signs in with a Secure cookie', async () => {
    const context = await trusting.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    const page = await context.newPage();
    const response = await page.goto(box.url);
    expect(response?.ok()).to.equal(true);
    const security = await response!.securityDetails();
    expect(security?.protocol).to.match(/TLS 1\.[23]/);
    const link = page.getByRole('link', { name: en['signIn.rootCa'] });
    await link.waitFor();
    expect(await link.getAttribute('href')).to.equal('/api/system/tls/root-ca.crt');
    const fingerprint = new X509Certificate(root).fingerprint256;
    expect((await page.locator('code.fingerprint').innerText()).trim()).to.equal(fingerprint);
    // Nothing of the page is wider than a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    await page.screenshot({ path: screenshotPath('sign-in-https-root') });
    // The link's target, fetched by the page itself over the trusted connection.
    const served = await page.evaluate(async () => {
      const answer = await fetch('/api/system/tls/root-ca.crt');
      return { type: answer.headers.get('content-type'), text: await answer.text() };
    });
    expect(served.type).to.match(/^application\/x-x509-ca-cert/);
    expect(served.text).to.equal(root);

    await signInThroughPage(page, box.url, 'admin', adminPassword);
    const cookie = (await context.cookies()).find((c) => c.name === 'box.sid');
    expect(cookie).to.include({ secure: true, httpOnly: true, sameSite: 'Strict' });
    await context.close();
  });
});
