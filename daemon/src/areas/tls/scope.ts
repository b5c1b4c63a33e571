import { isIP, isIPv4 } from 'node:net';
import type { TlsScope } from '../../../../shared/src/api/tls/tls.ts';
import { checkLocalDomain, isPublicName } from './local-domain.ts';

/** Private, link-local and loopback ranges: a house's devices, never a public address. */
export const privateRanges: readonly string[] = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '169.254.0.0/16',
  '127.0.0.0/8',
  'fc00::/7',
  'fe80::/10',
  '::1/128',
];

/**
 * The authority's scope: the box's host name, the local domain and `localhost` with their
 * subdomains, and the private address ranges. The intermediate carries it as name constraints,
 * so even a stolen intermediate cannot sign for a public name.
 *
 * The host name is left out when it is a top-level domain or public suffix (`com`): it is the
 * machine's, set by the installer, the network settings, DHCP or by hand, and the scope is where
 * it would do harm. The box is then reached by its name in the local domain.
 */
export function scopeFor(hostname: string, localDomain: string): TlsScope {
  checkLocalDomain(localDomain);
  const host = hostname.toLowerCase();
  const dnsNames = [...new Set([...(isPublicName(host) ? [] : [host]), localDomain.toLowerCase(), 'localhost'])];
  return { dnsNames, ipRanges: [...privateRanges] };
}

export function parseCidr(range: string): { address: string; prefix: number } {
  const [address = '', prefix = ''] = range.split('/');
  return { address, prefix: Number(prefix) };
}

/** The bytes of an IPv4 or IPv6 address (4 or 16). */
export function ipBytes(address: string): number[] {
  if (isIPv4(address)) return address.split('.').map(Number);
  const [head = '', tail = ''] = address.includes('::') ? address.split('::') : [address, ''];
  const groups = (part: string) => (part ? part.split(':') : []);
  let headGroups = groups(head);
  let tailGroups = groups(tail);
  // An embedded IPv4 tail (::ffff:192.0.2.1) is two groups.
  const last = tailGroups.at(-1) ?? headGroups.at(-1);
  if (last && isIPv4(last)) {
    const [a = 0, b = 0, c = 0, d = 0] = ipBytes(last);
    const extra = [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    if (tailGroups.length) tailGroups = [...tailGroups.slice(0, -1), ...extra];
    else headGroups = [...headGroups.slice(0, -1), ...extra];
  }
  const missing = 8 - headGroups.length - tailGroups.length;
  const all = [...headGroups, ...Array<string>(address.includes('::') ? missing : 0).fill('0'), ...tailGroups];
  return all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

function inRange(address: string, range: string): boolean {
  const { address: base, prefix } = parseCidr(range);
  const a = ipBytes(address);
  const b = ipBytes(base);
  if (a.length !== b.length) return false;
  for (let bit = 0; bit < prefix; bit++) {
    const mask = 0x80 >> (bit % 8);
    if (((a[bit >> 3] ?? 0) & mask) !== ((b[bit >> 3] ?? 0) & mask)) return false;
  }
  return true;
}

/** Whether an address range lies wholly inside one of the private ranges. */
export function privateRange(range: string): boolean {
  const { address, prefix } = parseCidr(range);
  if (!isIP(address) || !Number.isInteger(prefix)) return false;
  return privateRanges.some((outer) => prefix >= parseCidr(outer).prefix && inRange(address, outer));
}

/** Whether a DNS name or address lies inside the scope, as a verifier applies the name constraints. */
export function inScope(name: string, scope: TlsScope): boolean {
  if (isIP(name)) return scope.ipRanges.some((range) => inRange(name, range));
  const lower = name.toLowerCase().replace(/^\*\./, '');
  return scope.dnsNames.some((base) => lower === base || lower.endsWith(`.${base}`));
}
