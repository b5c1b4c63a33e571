import { api } from './api.ts';

const marker = '#proxy=';

/**
 * A visitor sent here by a sign-in-protected proxy host carries the address asked in the
 * fragment (`#proxy=<address>`, which nginx writes unencoded). Once signed in, a one-time ticket
 * for that address opens it on the host, which turns the ticket into its own cookie.
 * Answers false when there is nothing to continue to; throws the problem of a refused ticket.
 */
export async function continueToProxyHost(): Promise<boolean> {
  if (!location.hash.startsWith(marker)) return false;
  const url = location.hash.slice(marker.length);
  // Asked once: a reload or a refused ticket leaves the desktop as it is.
  history.replaceState(null, '', location.pathname + location.search);
  const ticket = await api.proxy.ticket({ body: { url } });
  location.assign(ticket.url);
  return true;
}
