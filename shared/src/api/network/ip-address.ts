import Joi from 'joi';

/**
 * Whether the dotted IPv4 part of an address (all of it, or an IPv6 address's tail) has no octet
 * with a leading zero: Joi takes `010.0.0.1`, which Node, the kernel's parsers and `ip` read
 * differently or not at all.
 */
function noLeadingZeros(address: string): boolean {
  const ip = address.split('/')[0] ?? '';
  const tail = ip.slice(ip.lastIndexOf(':') + 1);
  return !tail.includes('.') || tail.split('.').every((octet) => octet === '0' || !octet.startsWith('0'));
}

/**
 * An IPv4 or IPv6 address as the box's network tools read it: Joi's ip() alone also takes
 * IPvFuture (`v1.x`) and leading zeros in IPv4 octets. `cidr` as in Joi's ip().
 */
export const hostAddress = (cidr: 'required' | 'forbidden') =>
  Joi.string()
    .ip({ version: ['ipv4', 'ipv6'], cidr })
    .custom((value: string, helpers) => (noLeadingZeros(value) ? value : helpers.error('string.ip', { value, cidr })));
