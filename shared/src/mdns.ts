/**
 * How a box announces itself by mDNS (DNS-SD), in one place for both ends: the daemon's announcer
 * (daemon/src/areas/installer) writes the TXT record with `mdnsTxt`, the console's browser
 * (console/src/node/mdns-browser.ts) reads it with `readMdnsTxt`. Runs in Node only.
 */

/** The two service types (`_cellar._tcp`, `_cellar-installer._tcp`): an installed box, and one waiting for installation. */
export const mdnsServiceTypes = { installed: 'cellar', installer: 'cellar-installer' } as const;

/** The TXT record's keys; short, as DNS-SD asks (RFC 6763 6.4). */
export const mdnsTxtKeys = { installId: 'id', version: 'version', scheme: 'scheme' } as const;

export interface MdnsTxt {
  /** The installation's id (`GET /api/install-id`); on the medium, the id the installed box will have. */
  installId: string | null;
  version: string | null;
  scheme: 'http' | 'https';
}

/** The TXT record a box announces. */
export function mdnsTxt(txt: MdnsTxt): Record<string, string> {
  return { [mdnsTxtKeys.installId]: txt.installId ?? '', [mdnsTxtKeys.version]: txt.version ?? '', [mdnsTxtKeys.scheme]: txt.scheme };
}

/** What an answer's TXT record says; anything missing, empty or not text is null (HTTPS when the scheme is not plainly http). */
export function readMdnsTxt(txt: unknown): MdnsTxt {
  const record = (typeof txt === 'object' && txt !== null ? txt : {}) as Record<string, unknown>;
  const text = (key: string) => {
    const value = record[key];
    return typeof value === 'string' && value !== '' ? value : null;
  };
  return {
    installId: text(mdnsTxtKeys.installId),
    version: text(mdnsTxtKeys.version),
    scheme: text(mdnsTxtKeys.scheme) === 'http' ? 'http' : 'https',
  };
}
