import { isIP } from 'node:net';
import type { TlsScope } from '../../../../shared/src/api/tls.ts';
import { inScope } from './scope.ts';

/** What the box knows of itself on the network. */
export interface HostIdentity {
  hostname: string;
  addresses: string[];
}

/**
 * The names the box's certificate covers without being asked: its host name, that name in the
 * local domain, `localhost` and its addresses, each only while inside the authority's scope
 * (a public address of the box cannot be vouched for by a constrained intermediate).
 */
export function automaticNames(identity: HostIdentity, localDomain: string, scope: TlsScope): string[] {
  const host = identity.hostname.toLowerCase();
  // Link-local IPv6 addresses need a zone, which no URL a browser opens can carry.
  const addresses = identity.addresses.filter((a) => isIP(a) && !a.toLowerCase().startsWith('fe80:'));
  const names = [host, `${host}.${localDomain}`, 'localhost', ...addresses];
  return [...new Set(names)].filter((name) => inScope(name, scope));
}
