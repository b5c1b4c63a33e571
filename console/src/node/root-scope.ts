import { X509Certificate } from 'node:crypto';
import type { RootScope } from '../bridge.ts';

interface Tlv {
  tag: number;
  value: Buffer;
}

/** The DER elements one after another in `data` (definite lengths only, as DER has). */
function elements(data: Buffer): Tlv[] {
  const out: Tlv[] = [];
  let at = 0;
  while (at < data.length) {
    const tag = data[at]!;
    let length = data[at + 1]!;
    at += 2;
    if (length & 0x80) {
      const bytes = length & 0x7f;
      if (bytes === 0 || bytes > 4) throw new Error('unsupported DER length');
      length = data.subarray(at, at + bytes).reduce((n, b) => n * 256 + b, 0);
      at += bytes;
    }
    if (at + length > data.length) throw new Error('truncated DER');
    out.push({ tag, value: data.subarray(at, at + length) });
    at += length;
  }
  return out;
}

const nameConstraintsOid = Buffer.from([0x55, 0x1d, 0x1e]);

function prefixLength(mask: Buffer): number {
  let bits = 0;
  for (const byte of mask) bits += byte.toString(2).replace(/0+$/, '').length;
  return bits;
}

function ipRange(value: Buffer): string | null {
  const half = value.length / 2;
  if (half !== 4 && half !== 16) return null;
  const address = value.subarray(0, half);
  const groups = () => Array.from({ length: 8 }, (_, i) => address.readUInt16BE(i * 2).toString(16)).join(':');
  // The URL parser writes an IPv6 address in its short form (fc00::, ::1).
  const text = half === 4 ? [...address].join('.') : new URL(`http://[${groups()}]/`).hostname.slice(1, -1);
  return `${text}/${prefixLength(value.subarray(half))}`;
}

/**
 * What a root certificate can vouch for: the permitted DNS subtrees and IP ranges of its critical
 * name constraints, or `{ constrained: false }` when it has none (it vouches for any name).
 * Node's X509Certificate does not read the extension, so its DER is walked here.
 */
export function rootScope(pem: string): RootScope {
  try {
    return readScope(pem);
  } catch {
    // A root the console cannot read limits nothing it could show.
    return { constrained: false, dnsNames: [], ipRanges: [] };
  }
}

function readScope(pem: string): RootScope {
  const der = new X509Certificate(pem).raw;
  const [certificate] = elements(der);
  const tbs = elements(certificate!.value)[0]!;
  const extensionsWrapper = elements(tbs.value).find((e) => e.tag === 0xa3);
  const extensions = extensionsWrapper ? elements(elements(extensionsWrapper.value)[0]!.value) : [];
  for (const extension of extensions) {
    const parts = elements(extension.value);
    if (parts[0]?.tag !== 0x06 || !parts[0].value.equals(nameConstraintsOid)) continue;
    const critical = parts[1]?.tag === 0x01 && parts[1].value[0] !== 0;
    const octets = parts.find((p) => p.tag === 0x04);
    // A constraint a verifier may ignore limits nothing.
    if (!critical || !octets) return { constrained: false, dnsNames: [], ipRanges: [] };
    const permitted = elements(elements(octets.value)[0]!.value).find((e) => e.tag === 0xa0);
    const scope: RootScope = { constrained: permitted !== undefined, dnsNames: [], ipRanges: [] };
    for (const subtree of permitted ? elements(permitted.value) : []) {
      const base = elements(subtree.value)[0];
      if (base?.tag === 0x82) scope.dnsNames.push(base.value.toString('ascii'));
      else if (base?.tag === 0x87) scope.ipRanges.push(ipRange(base.value) ?? '?');
      // Any other kind of name (e-mail, directory) is no host name a browser checks: shown as nothing.
    }
    return scope;
  }
  return { constrained: false, dnsNames: [], ipRanges: [] };
}
