import { expect } from 'chai';
import { contains, overlaps, parseCidr, subnetOf } from './cidr.ts';

const c = (text: string) => {
  const parsed = parseCidr(text);
  if (!parsed) throw new Error(`not a CIDR: ${text}`);
  return parsed;
};

describe('cidr: subnet arithmetic for the network rules', () => {
  it('finds the subnet of IPv4 and IPv6 addresses', () => {
    expect(subnetOf(c('192.0.2.77/24'))).to.equal('192.0.2.0/24');
    expect(subnetOf(c('10.1.2.3/8'))).to.equal('10.0.0.0/8');
    expect(subnetOf(c('2001:db8:0:1::5/64'))).to.equal('2001:db8:0:1::/64');
    expect(subnetOf(c('::ffff:192.0.2.1/120'))).to.equal('::ffff:c000:200/120');
  });

  it('tells overlapping subnets apart from neighbours, whichever is wider', () => {
    expect(overlaps(c('192.0.2.10/24'), c('192.0.2.200/25'))).to.equal(true);
    expect(overlaps(c('192.0.2.200/25'), c('192.0.2.10/16'))).to.equal(true);
    expect(overlaps(c('192.0.2.10/25'), c('192.0.2.200/25'))).to.equal(false);
    expect(overlaps(c('2001:db8::1/48'), c('2001:db8:0:5::1/64'))).to.equal(true);
    expect(overlaps(c('2001:db8::1/64'), c('192.0.2.1/24'))).to.equal(false);
  });

  it('places a gateway inside or outside a subnet', () => {
    expect(contains(c('192.0.2.10/24'), c('192.0.2.1'))).to.equal(true);
    expect(contains(c('192.0.2.10/24'), c('192.0.3.1'))).to.equal(false);
    expect(contains(c('fe80::1/64'), c('fe80::ff'))).to.equal(true);
  });

  it('refuses what is not an address with a prefix', () => {
    expect(parseCidr('192.0.2.1/33')).to.equal(null);
    expect(parseCidr('example.org/24')).to.equal(null);
    expect(parseCidr('192.0.2.1/x')).to.equal(null);
  });
});
