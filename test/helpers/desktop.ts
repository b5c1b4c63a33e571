import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { signInThroughPage } from './browser.ts';
import { adminPassword } from './daemon.ts';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A signed-in desktop in a fresh browser context (its own localStorage, so its own device id). */
export async function openDesktop(
  browser: Browser,
  baseUrl: string,
  options: { username?: string; password?: string; viewport?: { width: number; height: number }; locale?: string; touch?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    locale: options.locale ?? 'en-US',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
  });
  const page = await context.newPage();
  await signInThroughPage(page, baseUrl, options.username ?? 'admin', options.password ?? adminPassword);
  await desktopReady(page);
  return { context, page };
}

/** Waits for the desktop to have loaded its state (icons, apps, windows from the URL). */
export async function desktopReady(page: Page): Promise<void> {
  await page.locator('.desktop[data-ready="true"]').waitFor({ timeout: 10_000 });
}

/** Where a window or icon is, as its inline style places it. */
export function styleRect(locator: Locator): Promise<Rect> {
  return locator.evaluate((el: HTMLElement) => ({
    x: Number.parseFloat(el.style.left),
    y: Number.parseFloat(el.style.top),
    width: Number.parseFloat(el.style.width || '0'),
    height: Number.parseFloat(el.style.height || '0'),
  }));
}

/** Drags with the mouse in small steps, as a person would. */
export async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + (to.x - from.x) / 2, from.y + (to.y - from.y) / 2, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 5 });
  await page.mouse.up();
}

/** Polls a condition in the test process until it holds (5 s). */
export async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** This page's saved layout and its version, read the way the page does (its own device id). */
export function savedLayout(page: Page): Promise<{ layout: { icons?: Record<string, { col: number; row: number }> } | null; layoutVersion: number }> {
  return page.evaluate(async () => {
    const response = await fetch('/api/desktop', { headers: { 'X-Device-Id': localStorage.getItem('cellar.deviceId') ?? '' } });
    return (await response.json()) as { layout: { icons?: Record<string, { col: number; row: number }> } | null; layoutVersion: number };
  });
}
