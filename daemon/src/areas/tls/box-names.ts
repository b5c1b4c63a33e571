import { isIP } from 'node:net';
import type { TlsScope } from '../../../../shared/src/api/tls/tls.ts';
import type { HostIdentity } from '../../host/host-identity.ts';
import { inScope } from './scope.ts';

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

/**
 * An address in one spelling (IPv6 in its short form), a DNS name in lower case: certificates spell
 * IPv6 addresses out in full (`0:0:0:0:0:0:0:1`), the box and its users mostly not (`::1`).
 */
export function canonicalName(name: string): string {
  if (isIP(name) === 6) return new URL(`http://[${name}]/`).hostname.slice(1, -1);
  return name.toLowerCase();
}

/**
 * The first of `names` that is one of the box's own names or a wildcard covering one (`*.local`
 * covers `cellar.local`): a device holding such a certificate could pose as the box.
 */
export function boxNameAmong(names: readonly string[], boxNames: readonly string[]): string | undefined {
  const own = boxNames.map(canonicalName);
  return names.find((name) => {
    const wanted = canonicalName(name);
    if (own.includes(wanted)) return true;
    if (!wanted.startsWith('*.')) return false;
    const base = wanted.slice(1);
    return own.some((box) => box.endsWith(base) && !box.slice(0, -base.length).includes('.'));
  });
}
