/**
 * The rules of the console's Electron shell as plain functions (the glue in console/src/main only
 * applies them), so they run and are tested under plain Node: which page is the console's own,
 * where a window may navigate, which permissions a page gets, and a certificate's chain.
 */

/** The console's own pages are served on this scheme and host (console/src/main/app-protocol.ts), never from file:. */
export const consoleScheme = 'app';
export const consoleOrigin = 'app://console';
export const consolePage = `${consoleOrigin}/index.html`;

/** The origin of a URL, `null` when it has none the shell accepts (only the console's own app: and http(s)). */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === `${consoleScheme}:`) return parsed.host === 'console' ? consoleOrigin : null;
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return parsed.origin;
  } catch {
    return null;
  }
}

/** Whether `url` is on the origin `origin` (the window's own): scheme, host and port alike. */
export function sameOrigin(origin: string, url: string): boolean {
  const target = originOf(url);
  return target !== null && target === originOf(origin);
}

/** Whether an IPC call comes from the console's own page: the sender frame's URL on the console's origin. */
export function isConsoleFrame(frameUrl: string | null | undefined): boolean {
  return typeof frameUrl === 'string' && sameOrigin(consoleOrigin, frameUrl);
}

/** What a window does with a link or window.open: stays on its own origin, hands http(s) to the user's browser, nothing else. */
export function linkAction(origin: string, url: string): 'allow' | 'external' | 'deny' {
  if (sameOrigin(origin, url)) return 'allow';
  return /^https?:\/\//i.test(url) && originOf(url) !== null ? 'external' : 'deny';
}

/**
 * The one permission a page gets: writing to the clipboard (the desktop's Copy buttons), for a
 * box's own page asking for its own origin. The console's page needs none; everything else
 * (camera, notifications, clipboard reading, ...) is refused everywhere.
 */
export function allowPermission(request: { permission: string; requestingUrl: string; contentsOrigin: string | null }): boolean {
  const { permission, requestingUrl, contentsOrigin } = request;
  if (permission !== 'clipboard-sanitized-write' || contentsOrigin === null) return false;
  if (sameOrigin(consoleOrigin, contentsOrigin)) return false;
  return sameOrigin(contentsOrigin, requestingUrl);
}

/** A certificate as Electron describes it: PEM and its issuer, up to a self-signed root. */
export interface LinkedCertificate {
  data: string;
  issuerCert?: LinkedCertificate | undefined;
}

/** The chain Electron hands the verifier, leaf first, in PEM (at most 8 links: a loop of issuers ends there). */
export function chainOf(certificate: LinkedCertificate): string[] {
  const chain: string[] = [];
  for (let link: LinkedCertificate | undefined = certificate; link && chain.length < 8; link = link.issuerCert) {
    if (chain.at(-1) === link.data) break;
    chain.push(link.data);
  }
  return chain;
}

/** Chromium's net error codes of certificates: ERR_CERT_* are -200 to -299. */
const certificateErrors = { from: -299, to: -200 };
/** ERR_ABORTED: a navigation the window itself stopped (ours, or the user's), no failure to show. */
const aborted = -3;

/** Why a box window's main frame failed to load, for the console's own page about it; null when nothing failed worth a page. */
export function loadFailure(errorCode: number, refusedByPin: boolean): 'certificate' | 'unreachable' | null {
  if (errorCode === aborted || errorCode === 0) return null;
  if (refusedByPin || (errorCode >= certificateErrors.from && errorCode <= certificateErrors.to)) return 'certificate';
  return 'unreachable';
}
