import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { artifacts, startBrowserBox, stopBrowserBox } from '../helpers/browser.ts';
import { type TestDaemon } from '../helpers/daemon.ts';

describe('e2e: the API docs page', function () {
  this.timeout(60_000);
  let box: TestDaemon;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Console errors (CSP violations among them) and requests that left the daemon. */
  let problems: string[];

  before(async () => {
    ({ box, browser } = await startBrowserBox({ web: false }));
  });

  after(async () => {
    await stopBrowserBox({ box, browser });
  });

  beforeEach(async () => {
    problems = [];
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(box.url) && !request.url().startsWith('data:')) problems.push(`remote request: ${request.url()}`);
    });
  });

  afterEach(async function () {
    const name = (this.currentTest?.title ?? 'test').replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    if (page && !page.isClosed()) await page.screenshot({ path: path.join(artifacts, `api-docs-${name}.png`) });
    await context?.close();
  });

  it('renders every operation under the CSP without remote requests', async () => {
    await page.goto(`${box.url}/api/docs`);
    const documented = (await page.evaluate(`(async () => {
      const doc = await (await fetch('/api/openapi.json')).json();
      const tags = {};
      for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) tags[op.tags[0]] = (tags[op.tags[0]] ?? 0) + 1;
      return tags;
    })()`)) as Record<string, number>;
    await page.locator('.swagger-ui .opblock-tag').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('.swagger-ui .info .title').textContent()).to.contain('Cellar');
    // The areas come first, each opened on demand: open each, count its operations, close it again.
    const rendered: Record<string, number> = {};
    for (const tag of Object.keys(documented)) {
      const section = page.locator('.swagger-ui .opblock-tag-section').filter({ has: page.locator(`h3[data-tag="${tag}"]`) });
      await section.locator('h3').click();
      await section.locator('.opblock').first().waitFor();
      rendered[tag] = await section.locator('.opblock').count();
      await section.locator('h3').click();
    }
    expect(rendered).to.deep.equal(documented);
    expect(problems).to.deep.equal([]);
  });

  it('scrolls an error code anchor into view once Swagger UI has rendered', async () => {
    await page.goto(`${box.url}/api/docs#error-auth.session.required`);
    await page.locator('.swagger-ui .opblock-tag').first().waitFor({ timeout: 20_000 });
    const anchor = page.locator('[id="error-auth.session.required"]');
    expect(await anchor.textContent()).to.contain('auth.session.required');
    // onComplete scrolls after rendering; give it a moment, then the anchor must be on screen.
    await page.waitForFunction(() => {
      const box = document.getElementById('error-auth.session.required')?.getBoundingClientRect();
      // scrollIntoView may leave it a fraction of a pixel above the top.
      return box !== undefined && box.top > -1 && box.bottom <= window.innerHeight;
    });
    expect(problems).to.deep.equal([]);
  });
});
