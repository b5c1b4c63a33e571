import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { watchBrowser } from './browser-contract.ts';
import { adminPassword, startTestDaemon, type TestDaemon } from './daemon.ts';

const repo = path.resolve(import.meta.dirname, '../..');

/**
 * The built web desktop the browser tests serve: `npm run build` writes daemon/public.
 * CELLAR_WEB_DIR points elsewhere, so engineers can build and test side by side without
 * emptying each other's folder (`npx vite build --config web/vite.config.ts --outDir <dir> --emptyOutDir`).
 */
export const webDir = process.env.CELLAR_WEB_DIR ? path.resolve(process.env.CELLAR_WEB_DIR) : path.join(repo, 'daemon/public');
export const artifacts = path.join(repo, 'test/artifacts');
export const chromiumPath = '/usr/bin/chromium';

/** Fails loudly, naming the install command, when Chromium is missing; makes the screenshot folder. */
export function assertChromium(): void {
  if (!existsSync(chromiumPath)) throw new Error(`No Chromium at ${chromiumPath}: run \`apt-get install -y --no-install-recommends chromium\`.`);
  mkdirSync(artifacts, { recursive: true });
}

/** Fails loudly, naming the command, when the web is not built or Chromium is missing. */
export function assertBrowserPrerequisites(): void {
  if (!existsSync(path.join(webDir, 'index.html'))) throw new Error(`The web desktop is not built: run \`npm run build\` first (no ${webDir}/index.html).`);
  assertChromium();
}

/**
 * Debian's Chromium, headless, with the flags this machine's closed network needs (../shared/machine-notes.md).
 * `env` replaces the browser's environment (a HOME whose NSS database trusts a test root).
 * Every API call its pages make is checked against the daemon's document (browser-contract.ts).
 */
export async function launchChromium(env?: Record<string, string>): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    ...(env ? { env } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return watchBrowser(browser);
}

export interface BrowserBox {
  box: TestDaemon;
  browser: Browser;
}

/**
 * What every browser test starts with: a real daemon (development mode, fresh data directory)
 * serving the built web desktop, and Debian's Chromium. Fails loudly, naming the command, on a
 * missing prerequisite. `web: false` serves no desktop (a page the daemon renders itself).
 */
export async function startBrowserBox(
  options: { web?: boolean; daemon?: Parameters<typeof startTestDaemon>[1]; config?: Parameters<typeof startTestDaemon>[0] } = {},
): Promise<BrowserBox> {
  if (options.web === false) assertChromium();
  else assertBrowserPrerequisites();
  const box = await startTestDaemon({ ...options.config, ...(options.web === false ? {} : { webDir }) }, options.daemon);
  try {
    return { box, browser: await launchChromium() };
  } catch (err) {
    await box.close();
    throw err;
  }
}

/** Closes the browser, then the daemon; either may be missing when the start failed halfway. */
export async function stopBrowserBox(started: Partial<BrowserBox>): Promise<void> {
  await started.browser?.close();
  await started.box?.close();
}

/** Waits up to five seconds for a locator's text to become `text`, then asserts it (showing what it was). */
export async function expectText(locator: Locator, text: string): Promise<void> {
  const deadline = Date.now() + 5000;
  let seen = await locator.textContent();
  while (seen?.trim() !== text && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = await locator.textContent();
  }
  expect(seen?.trim()).to.equal(text);
}

/** Signs in through the sign-in page and waits for the desktop's taskbar. */
export async function signInThroughPage(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(baseUrl);
  await page.locator('input[autocomplete="username"]').fill(username);
  await page.locator('input[type="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
  await page.locator('nav.taskbar').waitFor({ timeout: 10_000 });
}

export function screenshotPath(name: string): string {
  return path.join(artifacts, `${name}.png`);
}

/** The phone every window must be usable on. */
export const phoneViewport = { width: 390, height: 844 };

export interface OpenedSection {
  context: BrowserContext;
  page: Page;
  /** The section's tab panel. */
  panel: Locator;
}

/**
 * The administrator, signed in through the sign-in page in a fresh browser context, with the
 * Control Panel open at `section` (a section id, with a sub-route where wanted). A phone at
 * 390x844 in English unless told otherwise; the caller closes the context.
 */
export async function openControlPanelSection(
  browser: Browser,
  box: { url: string },
  section: string,
  options: { viewport?: { width: number; height: number }; locale?: string; acceptDownloads?: boolean } = {},
): Promise<OpenedSection> {
  const { viewport = phoneViewport, locale = 'en-US', acceptDownloads = false } = options;
  const context = await browser.newContext({ locale, viewport, acceptDownloads });
  const page = await context.newPage();
  await signInThroughPage(page, box.url, 'admin', adminPassword);
  await page.goto(`${box.url}/app/org.service.control-panel/${section}`);
  return { context, page, panel: page.getByRole('tabpanel') };
}

/**
 * Visible controls and links whose right edge passes the viewport, unless a scrolling ancestor
 * clips them (the section tabs), and a page that scrolls sideways. A string, not a function: the test
 * runner's transform would add helpers the page lacks.
 */
const controlsPastViewportScript = `(() => {
  const width = window.innerWidth;
  const out = [];
  if (document.scrollingElement.scrollWidth > width) out.push('the page scrolls sideways');
  for (const el of document.querySelectorAll('button, input:not([type=hidden]), select, textarea, label, a[href], summary')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= width + 0.5) continue;
    let clipped = false;
    for (let p = el.parentElement; p && !clipped; p = p.parentElement) {
      clipped = ['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX) && p.getBoundingClientRect().right <= width + 0.5;
    }
    if (!clipped) out.push(el.tagName.toLowerCase() + ' "' + (el.textContent || '').trim().slice(0, 30) + '"');
  }
  return out;
})()`;

/** What passes the page's right edge (see the script above); empty when nothing does. */
export function controlsPastViewport(page: Page): Promise<string[]> {
  return page.evaluate(controlsPastViewportScript) as Promise<string[]>;
}
