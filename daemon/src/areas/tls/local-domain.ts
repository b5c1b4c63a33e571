import { ProblemError } from '../../core/problem-error.ts';
import { topLevelDomains } from './top-level-domains.ts';

/**
 * Single-label domains a house may use for itself: names no registry hands out (RFC 6762's
 * `local`, and the ones routers and companies commonly use). Any other single label is a
 * top-level domain, or may become one.
 */
const privateLabels = new Set(['local', 'lan', 'home', 'internal', 'localdomain', 'intranet', 'corp', 'private']);

/**
 * Public suffixes of more than one label under which anyone registers names: as the local domain
 * alone, the authority's name constraints would cover every name registered under them. A short
 * list of the widely used ones; single labels are refused by the rule above.
 */
const publicSuffixes = new Set([
  'co.uk',
  'org.uk',
  'me.uk',
  'ac.uk',
  'gov.uk',
  'com.au',
  'net.au',
  'org.au',
  'co.nz',
  'co.jp',
  'ne.jp',
  'or.jp',
  'co.at',
  'or.at',
  'com.br',
  'com.cn',
  'com.mx',
  'com.tr',
  'co.in',
  'co.za',
  'co.kr',
  'com.sg',
  'in-addr.arpa',
  'ip6.arpa',
]);

/**
 * Whether a name is itself a top-level domain or a public suffix, so that a scope holding it would
 * cover names anyone registers. Host names are checked by this (a single label such as `cellar`
 * is a usual host name); the local domain by the stricter rule below.
 */
export function isPublicName(name: string): boolean {
  const lower = name.toLowerCase();
  return topLevelDomains.has(lower) || publicSuffixes.has(lower);
}

/** Refuses a local domain that is a public top-level domain or public suffix: the authority could then sign for the whole Internet's names under it. */
export function checkLocalDomain(domain: string): void {
  const lower = domain.toLowerCase();
  const single = !lower.includes('.');
  if ((single && !privateLabels.has(lower)) || publicSuffixes.has(lower)) throw new ProblemError('tls.domain.public', { domain });
}

export function isValidLocalDomain(domain: string): boolean {
  try {
    checkLocalDomain(domain);
    return true;
  } catch {
    return false;
  }
}
