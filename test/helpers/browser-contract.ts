import { request as httpsRequest } from 'node:https';
import type { Browser, BrowserContext, Response as PageResponse } from 'playwright-core';
import { ContractChecker, ContractMismatch, rawBody } from './openapi-check.ts';

/**
 * The browser tests' API calls checked against the document the daemon serves, like the test client's:
 * every `/api/` request a page makes (fetches, navigations, images, downloads, the browser's own
 * revalidations) and every answer it gets. Checks run as answers arrive; a mismatch is kept and fails
 * the test during which it was seen (the root hook below), naming the operation and schema path.
 */

const mismatches: string[] = [];
const pending = new Set<Promise<void>>();
const documents = new Map<string, Promise<ContractChecker | null>>();

/** The document of an origin, or null when the origin serves none (a page server that is not a daemon). */
function checkerOf(origin: string): Promise<ContractChecker | null> {
  let loaded = documents.get(origin);
  if (!loaded) {
    loaded = documentText(`${origin}/api/openapi.json`).then((text) => (text === null ? null : new ContractChecker(JSON.parse(text))));
    documents.set(origin, loaded);
  }
  return loaded;
}

/**
 * The document's text. An HTTPS daemon's certificate is whatever trust its test set up in the browser:
 * the document is public and only fetched from the loopback daemons the tests start, so it is read unverified.
 */
async function documentText(url: string): Promise<string | null> {
  if (url.startsWith('http:')) {
    const res = await fetch(url);
    return res.ok && (res.headers.get('content-type') ?? '').includes('json') ? res.text() : null;
  }
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(res.statusCode === 200 ? Buffer.concat(chunks).toString('utf8') : null));
    });
    req.on('error', reject);
    req.end();
  });
}

const nullBodyStatuses = new Set([204, 205, 304]);

async function checkExchange(response: PageResponse): Promise<void> {
  const request = response.request();
  const url = new URL(request.url());
  // An app's backend behind the box's proxy answers what the app defines; the document says so and no more.
  if (!url.pathname.startsWith('/api/') || url.pathname.startsWith('/api/app-backend/') || !url.protocol.startsWith('http')) return;
  const checker = await checkerOf(url.origin);
  if (!checker) return;
  const method = request.method();
  const requestHeaders = new Headers(flatten(await request.allHeaders()));
  const postData = request.postDataBuffer();
  const json = (requestHeaders.get('content-type') ?? '').includes('json');
  // Playwright holds no copy of a streamed body (a File or Blob upload): its headers still say one was sent.
  const streamed = postData === null && (requestHeaders.has('content-type') || Number(requestHeaders.get('content-length') ?? 0) > 0);
  const sent = postData !== null ? (json ? postData.toString('utf8') : rawBody) : streamed ? rawBody : undefined;
  const refused = checker.requestMismatch({ method, url, headers: requestHeaders, body: sent });

  const status = response.status();
  const headers = flatten(await response.allHeaders());
  const wantsBody = (headers['content-type'] ?? '').includes('json') && !nullBodyStatuses.has(status) && method !== 'HEAD';
  // A body the browser no longer holds (the page moved on) leaves only status, type and headers to check.
  const body = wantsBody ? await response.body().catch(() => null) : null;
  await checker.checkResponse(method, url, new Response(body === null ? null : new Uint8Array(body), { status, headers }), {
    bodyUnavailable: wantsBody && body === null,
  });
  // As with the typed client: a request the document refuses must be refused by the daemon too.
  if (refused && status < 400) throw new ContractMismatch(`${refused}; yet the daemon accepted it with ${status}`);
}

/** Playwright joins repeated headers (Set-Cookie) with newlines, which a Fetch header value may not hold. */
function flatten(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replaceAll('\n', ', ')]));
}

/** Checks every exchange of a browser context. */
export function watchContext(context: BrowserContext): void {
  context.on('response', (response) => {
    const check = checkExchange(response)
      .catch((err: unknown) => {
        if (err instanceof ContractMismatch) mismatches.push(`${response.request().method()} ${response.url()}: ${err.message}`);
        // Anything else (the context closed while reading) is no statement about the document.
      })
      .finally(() => pending.delete(check));
    pending.add(check);
  });
}

/** Under mocha, where the hooks below report what the checks find; a benchmark measures the desktop alone. */
const underMocha = typeof afterEach === 'function' && typeof after === 'function';

/** A browser whose every context, made by newContext or newPage, is watched (under mocha). */
export function watchBrowser(browser: Browser): Browser {
  if (!underMocha) return browser;
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    watchContext(context);
    return context;
  };
  return browser;
}

/** Waits for the checks under way (a few seconds at most), then answers the mismatches seen since the last call. */
export async function takeMismatches(): Promise<string[]> {
  await Promise.race([Promise.allSettled([...pending]), new Promise((resolve) => setTimeout(resolve, 5000))]);
  return mismatches.splice(0);
}

// Root hooks (mocha loads this module with the e2e files, through browser.ts): a mismatch fails the test during
// which the browser made the call; one seen after the last test fails the run's final hook.
if (underMocha) {
  afterEach(async function () {
    const seen = await takeMismatches();
    // A hook's error() fails the test it ran after, and the rest of the file still runs.
    if (seen.length) (this.test as Mocha.Hook | undefined)?.error(new ContractMismatch(`the browser's API calls break the document:\n${seen.join('\n')}`));
  });
  after(async () => {
    const seen = await takeMismatches();
    if (seen.length) throw new ContractMismatch(`the browser's API calls break the document:\n${seen.join('\n')}`);
  });
}
