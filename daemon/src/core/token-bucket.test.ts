import { expect } from 'chai';
import { TokenBucket } from './token-bucket.ts';

describe('TokenBucket', () => {
  it('grants a full burst, then only what the rate refills', () => {
    let now = 1_000_000;
    const bucket = new TokenBucket(200, 20, { now: () => now });
    expect(bucket.take(150)).to.equal(150);
    expect(bucket.take(100)).to.equal(50);
    expect(bucket.take(10)).to.equal(0);
    now += 1000;
    expect(bucket.take(100)).to.equal(20);
    now += 250;
    expect(bucket.take(100)).to.equal(5);
  });

  it('never holds more than its capacity and survives a clock going back', () => {
    let now = 0;
    const bucket = new TokenBucket(200, 20, { now: () => now });
    now += 3_600_000;
    expect(bucket.take(1000)).to.equal(200);
    now -= 60_000;
    expect(bucket.take(1)).to.equal(0);
    expect(bucket.isFull()).to.equal(false);
    now += 10_000;
    expect(bucket.isFull()).to.equal(true);
  });

  it('keeps fractions of a token between calls', () => {
    let now = 0;
    const bucket = new TokenBucket(1, 20, { now: () => now });
    expect(bucket.take(1)).to.equal(1);
    now += 30;
    expect(bucket.take(1)).to.equal(0);
    now += 20;
    expect(bucket.take(1)).to.equal(1);
  });
});
