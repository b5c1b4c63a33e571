import { expect } from 'chai';
import { maxWrongCodes, offerLifetimeMs, PairingOffers } from './pairing-offers.ts';

describe('replication pairing offers: one-time codes', () => {
  let now = 1_000_000;
  const clock = { now: () => now };

  it('answers the offer once for its code, typed in any case and grouping, and never again', () => {
    const offers = new PairingOffers(clock);
    const { offer, code } = offers.create('tank/replica');
    expect(code).to.match(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(offers.redeem(code.toLowerCase().replace(/-/g, ' '))).to.deep.equal({ offer });
    expect(offers.redeem(code)).to.deep.equal({ refused: 'wrong-code' });
  });

  it('keeps only the hash of a code', () => {
    const offers = new PairingOffers(clock);
    const { code } = offers.create('tank/replica');
    const kept = JSON.stringify([...(offers as unknown as { offers: Map<string, unknown> }).offers.values()]);
    expect(kept).to.not.contain(code);
    expect(kept).to.not.contain(code.replace(/-/g, ''));
  });

  it('refuses a code after 15 minutes', () => {
    const offers = new PairingOffers(clock);
    const { code } = offers.create('tank/replica');
    now += offerLifetimeMs;
    expect(offers.redeem(code)).to.deep.equal({ refused: 'expired' });
  });

  it(`voids every open offer after ${maxWrongCodes} wrong codes`, () => {
    const offers = new PairingOffers(clock);
    const { code } = offers.create('tank/replica');
    for (let i = 1; i < maxWrongCodes; i++) expect(offers.redeem('AAAA-AAAA-AAAA-AAAA')).to.deep.equal({ refused: 'wrong-code' });
    expect(offers.redeem('AAAA-AAAA-AAAA-AAAA')).to.deep.equal({ refused: 'too-many-attempts' });
    expect(offers.redeem(code)).to.deep.equal({ refused: 'too-many-attempts' });
    const fresh = offers.create('tank/replica');
    expect(offers.redeem(fresh.code)).to.have.property('offer');
  });
});
