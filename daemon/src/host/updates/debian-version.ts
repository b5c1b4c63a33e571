/**
 * Debian's version order (deb-version(7)), as `dpkg --compare-versions` has it: the bundle and
 * channel checks need it also on a development machine without dpkg.
 */

function order(c: string): number {
  if (c === '~') return -1;
  if (/[0-9]/.test(c)) return 0;
  if (c === '') return 0;
  if (/[A-Za-z]/.test(c)) return c.charCodeAt(0);
  return c.charCodeAt(0) + 256;
}

/** Compares the non-digit and digit runs of an upstream version or a revision in turn. */
function comparePart(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let firstDiff = 0;
    while ((i < a.length && !/[0-9]/.test(a[i]!)) || (j < b.length && !/[0-9]/.test(b[j]!))) {
      const ac = order(i < a.length && !/[0-9]/.test(a[i]!) ? a[i]! : '');
      const bc = order(j < b.length && !/[0-9]/.test(b[j]!) ? b[j]! : '');
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    while (i < a.length && /[0-9]/.test(a[i]!) && j < b.length && /[0-9]/.test(b[j]!)) {
      if (!firstDiff) firstDiff = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (i < a.length && /[0-9]/.test(a[i]!)) return 1;
    if (j < b.length && /[0-9]/.test(b[j]!)) return -1;
    if (firstDiff) return firstDiff;
  }
  return 0;
}

function split(version: string): { epoch: number; upstream: string; revision: string } {
  const colon = version.indexOf(':');
  const epoch = colon > 0 ? Number(version.slice(0, colon)) : 0;
  const rest = colon > 0 ? version.slice(colon + 1) : version;
  const dash = rest.lastIndexOf('-');
  return dash > 0 ? { epoch, upstream: rest.slice(0, dash), revision: rest.slice(dash + 1) } : { epoch, upstream: rest, revision: '' };
}

/** Negative when `a` is older than `b`, zero when equal, positive when newer. */
export function compareDebianVersions(a: string, b: string): number {
  const x = split(a);
  const y = split(b);
  if (x.epoch !== y.epoch) return x.epoch - y.epoch;
  return comparePart(x.upstream, y.upstream) || comparePart(x.revision, y.revision);
}

/** A version string dpkg accepts: optional epoch, upstream starting with a digit, optional revision. */
export const debianVersionPattern = /^(\d+:)?\d[A-Za-z0-9.+~-]*$/;
