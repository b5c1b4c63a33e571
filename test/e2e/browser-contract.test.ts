import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { takeMismatches } from '../helpers/browser-contract.ts';
import { signInThroughPage, startBrowserBox, stopBrowserBox, type BrowserBox } from '../helpers/browser.ts';
import { adminPassword } from '../helpers/daemon.ts';

describe("e2e: the browser's API calls are checked against the served document", function () {
  this.timeout(60_000);
  let started: Partial<BrowserBox> = {};
  let page: Page;

  before(async () => {
    started = await startBrowserBox();
    page = await started.browser!.newPage({ locale: 'en-US' });
    await signInThroughPage(page, started.box!.url, 'admin', adminPassword);
    // The desktop's own calls during sign-in match the document.
    expect(await takeMismatches()).to.deep.equal([]);
  });

  after(async () => {
    await stopBrowserBox(started);
  });

  afterEach(async () => {
    await page.unrouteAll();
  });

  it('reports an answer off the document, naming the operation and schema path', async () => {
    await page.route('**/api/auth/session', (route) => route.fulfill({ status: 200, json: { signedIn: 'yes' } }));
    await page.evaluate(() => fetch('/api/auth/session').then((r) => r.text()));
    const seen = await takeMismatches();
    expect(seen).to.have.length(1);
    expect(seen[0]).to.match(
      /^GET http:\/\/127\.0\.0\.1:\d+\/api\/auth\/session: auth\.session: response 200 body \(application\/json\) does not match the document: .*\(schema #\//,
    );
  });

  it('reports an undocumented status', async () => {
    await page.route('**/api/auth/session', (route) => route.fulfill({ status: 418, body: '' }));
    await page.evaluate(() => fetch('/api/auth/session').then((r) => r.text()));
    const seen = await takeMismatches();
    expect(seen).to.have.length(1);
    expect(seen[0]).to.match(/auth\.session: answered status 418, the document lists /);
  });

  it('reports a request off the document that the daemon accepted', async () => {
    // The daemon's real answer to the plain request, as if it had accepted the extra parameter.
    await page.route('**/api/auth/session?*', async (route) => route.fulfill({ response: await route.fetch({ url: `${started.box!.url}/api/auth/session` }) }));
    await page.evaluate(() => fetch('/api/auth/session?unknown=1').then((r) => r.text()));
    const seen = await takeMismatches();
    expect(seen).to.have.length(1);
    expect(seen[0]).to.match(/auth\.session: query parameter unknown is not in the document; yet the daemon accepted it with 200$/);
  });
});
