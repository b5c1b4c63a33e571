import { api } from './api.ts';

const marker = '#proxy=';

/** A proxy host's address from the page's `#proxy=` fragment, waiting for the user's yes. */
export interface ProxyLink {
  url: string;
  /** The name the desktop asks about: the host the ticket would open. */
  host: string;
}

/**
 * A visitor sent here by a sign-in-protected proxy host carries the address asked in the
 * fragment (`#proxy=<address>`, which nginx writes unencoded). Any page can link here with one,
 * so the desktop asks before it follows. Taken once: a reload or a "no" leaves the desktop as it is.
 */
export function takeProxyLink(): ProxyLink | null {
  if (!location.hash.startsWith(marker)) return null;
  const url = location.hash.slice(marker.length);
  history.replaceState(null, '', location.pathname + location.search);
  try {
    const parsed = new URL(url);
    return ['http:', 'https:'].includes(parsed.protocol) && parsed.hostname ? { url, host: parsed.hostname } : null;
  } catch {
    return null;
  }
}

/**
 * Once the user said yes, a one-time ticket for that address opens it on the host, which turns
 * the ticket into its own cookie. The daemon decides where the ticket goes (the host's own scheme
 * and the proxy's port), not the link. Throws the problem of a refused ticket.
 */
export async function continueToProxyHost(link: ProxyLink): Promise<void> {
  const ticket = await api.proxy.ticket({ body: { url: link.url } });
  location.assign(ticket.url);
}
