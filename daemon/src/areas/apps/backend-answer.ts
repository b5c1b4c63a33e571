import type http from 'node:http';

/**
 * What of a backend's answer reaches the window: content and caching only. The answer is served
 * from the box's own origin, so everything else (Content-Security-Policy, Clear-Site-Data,
 * Access-Control-*, Strict-Transport-Security, Set-Cookie, ...) would speak for the box: the
 * box's own headers stand instead.
 */
const kept = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-disposition',
  'content-range',
  'accept-ranges',
  'cache-control',
  'expires',
  'etag',
  'last-modified',
  'vary',
  'retry-after',
]);

/** Where the backend is reached on the box; the backend itself sees its paths from `/`. */
const base = 'http://backend.invalid';

/**
 * A redirect stays within the app's backend: `Location` is read against the request's path as
 * the backend saw it and rewritten to the box's address of it; one to anywhere else is dropped.
 */
function locationWithinApp(location: string, appId: string, rest: string): string | null {
  let target: URL;
  try {
    target = new URL(location, `${base}/${rest}`);
  } catch {
    return null;
  }
  if (target.origin !== base) return null;
  return `/api/app-backend/${appId}${target.pathname}${target.search}${target.hash}`;
}

/** The backend's answer headers the box passes on, in the order they came. */
export function answeredHeaders(headers: http.IncomingHttpHeaders, appId: string, rest: string): [string, string | string[]][] {
  const out: [string, string | string[]][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (kept.has(name)) out.push([name, value]);
    else if (name === 'location' && typeof value === 'string') {
      const location = locationWithinApp(value, appId, rest);
      if (location) out.push([name, location]);
    }
  }
  return out;
}
