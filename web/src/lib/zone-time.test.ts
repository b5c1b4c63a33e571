import { expect } from 'chai';
import { wallTimeIn } from './zone-time.ts';

describe('web: a typed wall-clock time in the box time zone', () => {
  it('reads the time in the given zone, whatever the browser is in', () => {
    expect(new Date(wallTimeIn('2026-11-01T08:30', 'Asia/Tokyo')).toISOString()).to.equal('2026-10-31T23:30:00.000Z');
    expect(new Date(wallTimeIn('2026-07-01T08:30', 'America/New_York')).toISOString()).to.equal('2026-07-01T12:30:00.000Z');
    expect(new Date(wallTimeIn('2026-01-15T00:00:15', 'UTC')).toISOString()).to.equal('2026-01-15T00:00:15.000Z');
  });

  it('takes the offset of the moment itself on the days daylight saving time begins and ends', () => {
    // Berlin: 29 March 2026 02:00 CET becomes 03:00 CEST; 25 October 2026 03:00 CEST becomes 02:00 CET.
    expect(new Date(wallTimeIn('2026-03-29T01:30', 'Europe/Berlin')).toISOString()).to.equal('2026-03-29T00:30:00.000Z');
    expect(new Date(wallTimeIn('2026-03-29T04:00', 'Europe/Berlin')).toISOString()).to.equal('2026-03-29T02:00:00.000Z');
    expect(new Date(wallTimeIn('2026-10-25T12:00', 'Europe/Berlin')).toISOString()).to.equal('2026-10-25T11:00:00.000Z');
  });

  it('answers NaN for a malformed value and the browser reading without a zone', () => {
    expect(wallTimeIn('', 'Asia/Tokyo')).to.be.NaN;
    expect(wallTimeIn('yesterday', 'Asia/Tokyo')).to.be.NaN;
    expect(wallTimeIn('2026-11-01T08:30', null)).to.equal(new Date('2026-11-01T08:30').getTime());
  });
});
