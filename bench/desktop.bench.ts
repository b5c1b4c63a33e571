import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium, webDir } from '../test/helpers/browser.ts';
import { adminPassword, startTestDaemon } from '../test/helpers/daemon.ts';
import type { BenchRow } from './lib/table.ts';

const runs = 7;

/** Gzip bytes of what index.html loads before anything else: the entry script, its module preloads and style sheets. */
function initialAssets(dir: string): { js: number; css: number } {
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"[^>]*>/g)].map((m) => ({ tag: m[0], url: m[1] ?? '' }));
  const size = (url: string) => gzipSync(readFileSync(path.join(dir, url.replace(/^\//, '')))).length;
  let js = 0;
  let css = 0;
  for (const ref of refs) {
    if (ref.url.endsWith('.js') && (ref.tag.startsWith('<script') || ref.tag.includes('modulepreload'))) js += size(ref.url);
    else if (ref.url.endsWith('.css') && ref.tag.includes('stylesheet')) css += size(ref.url);
  }
  return { js, css };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * The web desktop: its initial JavaScript and CSS (gzip) and the time from navigation to an
 * interactive desktop (state loaded, taskbar usable) on loopback in Chromium, against a
 * navigation to a static blank page of the same server.
 */
export async function desktopBench(): Promise<BenchRow[]> {
  if (!existsSync(path.join(webDir, 'index.html'))) throw new Error(`no built web desktop in ${webDir}: run npm run build (or set CELLAR_WEB_DIR)`);
  const { js, css } = initialAssets(webDir);
  // A copy of the build with a blank page beside it, so the baseline comes from the same server.
  const dir = mkdtempSync(path.join(tmpdir(), 'cellar-bench-web-'));
  cpSync(webDir, dir, { recursive: true });
  writeFileSync(path.join(dir, 'blank.html'), '<!doctype html><title>blank</title>');
  const box = await startTestDaemon({ webDir: dir });
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const signIn = await box.signIn();
    await signIn.api.desktop.createItem({ body: { kind: 'app', label: 'Files', appId: 'org.service.files' } });
    // Sign in through the page once; the runs reuse the session cookie.
    await page.goto(box.url);
    await page.locator('input[autocomplete="username"]').fill('admin');
    await page.locator('input[type="password"]').fill(adminPassword);
    await page.locator('form button[type="submit"]').click();
    await page.locator('.desktop[data-ready="true"]').waitFor({ timeout: 15_000 });
    const desktop: number[] = [];
    const blank: number[] = [];
    for (let i = 0; i < runs; i++) {
      let started = performance.now();
      await page.goto(`${box.url}/blank.html`, { waitUntil: 'load' });
      blank.push(performance.now() - started);
      started = performance.now();
      await page.goto(box.url, { waitUntil: 'commit' });
      await page.locator('.desktop[data-ready="true"] [data-item]').first().waitFor({ timeout: 15_000 });
      desktop.push(performance.now() - started);
    }
    await context.close();
    return [
      { name: 'desktop initial JavaScript (gzip)', value: js / 1024, unit: 'KiB', target: '≤ 150 KiB', ok: js / 1024 <= 150 },
      { name: 'desktop initial CSS (gzip)', value: css / 1024, unit: 'KiB', target: '≤ 20 KiB', ok: css / 1024 <= 20 },
      {
        name: `navigation to interactive desktop (median of ${runs})`,
        value: median(desktop),
        unit: 'ms',
        baseline: median(blank),
        baselineName: 'static blank page',
        target: '≤ 1000 ms on loopback',
        ok: median(desktop) <= 1000,
      },
    ];
  } finally {
    await browser.close();
    await box.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
