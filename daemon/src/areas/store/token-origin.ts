/**
 * Where a custom catalog's read token may go. The index names package addresses, and whoever
 * writes the index could name any host: the token goes only to the catalog's own place. An https
 * catalog: the same origin (https, host and port). An SSH catalog (or an http one on loopback in
 * development) names no https origin: https on the same host, at any port (a forge's web side
 * often listens beside its SSH port).
 */
export function mayCarryToken(packageUrl: string, catalogUrl: string): boolean {
  const target = parsed(packageUrl);
  if (!target || target.protocol !== 'https:') return false;
  const own = catalogPlace(catalogUrl);
  if (!own || own.host !== target.hostname) return false;
  return own.origin === null || own.origin === target.origin;
}

/** The catalog's host, and its https origin when it is an https catalog. */
export function catalogPlace(catalogUrl: string): { host: string; origin: string | null } | null {
  const url = parsed(catalogUrl);
  if (url && url.protocol === 'https:') return { host: url.hostname, origin: url.origin };
  if (url && (url.protocol === 'http:' || url.protocol === 'ssh:')) return { host: url.hostname, origin: null };
  // scp-like SSH addresses: [user@]host:path, the host possibly an IPv6 literal in brackets.
  const scp = /^(?:[^@/]+@)?(\[[0-9a-fA-F:.]+\]|[^:/[\]]+):/.exec(catalogUrl);
  const host = scp?.[1] ? parsed(`ssh://${scp[1]}/`)?.hostname : undefined;
  return host ? { host, origin: null } : null;
}

function parsed(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
