import { expect } from 'chai';
import { lastDue } from './daily-check.ts';

const at = (iso: string) => Date.parse(iso);
const minute = 60_000;

describe('lastDue: when the daily update check was last due', () => {
  it("is today's check time in the box's zone once it passed, else yesterday's", () => {
    // 03:00 in Auckland (UTC+13 in November) is 14:00 UTC the day before.
    expect(lastDue(at('2026-11-25T14:10:00Z'), '03:00', 'Pacific/Auckland', 0)).to.equal(at('2026-11-25T14:00:00Z'));
    expect(lastDue(at('2026-11-25T13:50:00Z'), '03:00', 'Pacific/Auckland', 0)).to.equal(at('2026-11-24T14:00:00Z'));
    expect(lastDue(at('2026-11-25T03:30:00Z'), '03:00', 'UTC', 0)).to.equal(at('2026-11-25T03:00:00Z'));
  });

  it("adds the box's delay: before the delay is over, the day before is the last due", () => {
    expect(lastDue(at('2026-11-25T03:20:00Z'), '03:00', 'UTC', 30 * minute)).to.equal(at('2026-11-24T03:30:00Z'));
    expect(lastDue(at('2026-11-25T03:40:00Z'), '03:00', 'UTC', 30 * minute)).to.equal(at('2026-11-25T03:30:00Z'));
  });

  it('is due after midnight when a late check time plus the delay crosses it', () => {
    // 23:30 plus 45 minutes is 00:15 of the next day: due at 00:20, not only a day later.
    expect(lastDue(at('2026-11-26T00:20:00Z'), '23:30', 'UTC', 45 * minute)).to.equal(at('2026-11-26T00:15:00Z'));
    expect(lastDue(at('2026-11-26T00:10:00Z'), '23:30', 'UTC', 45 * minute)).to.equal(at('2026-11-25T00:15:00Z'));
  });

  it('follows the zone across a change of its offset and a month boundary', () => {
    // Berlin leaves summer time on 2026-10-25, so 02:30 comes twice: the check is due at the first.
    expect(lastDue(at('2026-10-25T12:00:00Z'), '02:30', 'Europe/Berlin', 0)).to.equal(at('2026-10-25T00:30:00Z'));
    expect(lastDue(at('2026-10-26T12:00:00Z'), '02:30', 'Europe/Berlin', 0)).to.equal(at('2026-10-26T01:30:00Z'));
    expect(lastDue(at('2026-12-01T00:30:00Z'), '03:00', 'UTC', 0)).to.equal(at('2026-11-30T03:00:00Z'));
  });
});
