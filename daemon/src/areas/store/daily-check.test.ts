import { expect } from 'chai';
import { chooseDelayMinutes, lastDueAt, nextCheckAt } from './daily-check.ts';

describe('store daily check time', () => {
  const berlin = { dailyTime: '03:00', delayMinutes: 17, zone: 'Europe/Berlin' };

  it('is the daily time in the box zone plus the delay, the next one after now', () => {
    // 2026-11-25 12:00 UTC is 13:00 in Berlin: the next check is tomorrow 03:17 Berlin, 02:17 UTC.
    expect(new Date(nextCheckAt(Date.parse('2026-11-25T12:00:00Z'), berlin)).toISOString()).to.equal('2026-11-26T02:17:00.000Z');
    // 01:00 UTC is 02:00 in Berlin: today's check is still ahead.
    expect(new Date(nextCheckAt(Date.parse('2026-11-25T01:00:00Z'), berlin)).toISOString()).to.equal('2026-11-25T02:17:00.000Z');
  });

  it('owes the last check at or before now', () => {
    expect(new Date(lastDueAt(Date.parse('2026-11-25T12:00:00Z'), berlin)).toISOString()).to.equal('2026-11-25T02:17:00.000Z');
    expect(new Date(lastDueAt(Date.parse('2026-11-25T01:00:00Z'), berlin)).toISOString()).to.equal('2026-11-24T02:17:00.000Z');
  });

  it('follows the zone across a change of its offset', () => {
    // Summer time in Berlin: 03:00 is 01:00 UTC.
    expect(new Date(nextCheckAt(Date.parse('2026-07-01T12:00:00Z'), { ...berlin, delayMinutes: 0 })).toISOString()).to.equal('2026-07-02T01:00:00.000Z');
  });

  it('chooses a delay under an hour', () => {
    expect(chooseDelayMinutes(() => 0)).to.equal(0);
    expect(chooseDelayMinutes(() => 0.999999)).to.equal(59);
  });
});
