import { isIP } from 'node:net';

/** An address with its prefix as numbers, for subnet arithmetic on IPv4 and IPv6 alike. */
export interface Cidr {
  family: 4 | 6;
  value: bigint;
  prefix: number;
}

function bits(family: 4 | 6): number {
  return family === 4 ? 32 : 128;
}

function ipValue(ip: string, family: 4 | 6): bigint {
  if (family === 4) return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
  // Expand `::` into the missing zero groups; an embedded IPv4 tail becomes two groups.
  let text = ip.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipValue(v4[1]!, 4);
    text = text.slice(0, -v4[1]!.length) + `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** `192.0.2.10/24` or a bare address (a host route: full prefix). Null for anything else. */
export function parseCidr(text: string): Cidr | null {
  const [ip = '', prefixText] = text.split('/');
  const family = isIP(ip);
  if (family !== 4 && family !== 6) return null;
  const prefix = prefixText === undefined ? bits(family) : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bits(family)) return null;
  return { family, value: ipValue(ip, family), prefix };
}

function mask(family: 4 | 6, prefix: number): bigint {
  const width = BigInt(bits(family));
  return ((1n << width) - 1n) ^ ((1n << (width - BigInt(prefix))) - 1n);
}

/** The subnet of an address, as `network/prefix` text. */
export function subnetOf(c: Cidr): string {
  const net = c.value & mask(c.family, c.prefix);
  if (c.family === 4) return `${[24n, 16n, 8n, 0n].map((s) => String((net >> s) & 0xffn)).join('.')}/${c.prefix}`;
  const groups = Array.from({ length: 8 }, (_, i) => ((net >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  return `${groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::')}/${c.prefix}`;
}

/** Whether an address lies inside a subnet of the same family. */
export function contains(subnet: Cidr, ip: Cidr): boolean {
  if (subnet.family !== ip.family) return false;
  const m = mask(subnet.family, subnet.prefix);
  return (subnet.value & m) === (ip.value & m);
}

/** Two subnets overlap when the wider one contains the other's network. */
export function overlaps(a: Cidr, b: Cidr): boolean {
  if (a.family !== b.family) return false;
  const wider = a.prefix <= b.prefix ? a : b;
  const narrower = wider === a ? b : a;
  return contains(wider, narrower);
}

/** The address part without the prefix. */
export function hostPart(cidr: string): string {
  return cidr.split('/')[0] ?? cidr;
}
