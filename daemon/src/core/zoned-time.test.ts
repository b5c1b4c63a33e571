import { expect } from 'chai';
import { fromWallTime, knownToRuntime, wallTime } from './zoned-time.ts';

describe('zoned time', () => {
  it('reads the wall clock of a zone, summer and winter', () => {
    expect(wallTime(Date.UTC(2026, 0, 15, 12), 'Europe/Berlin')).to.include({ year: 2026, month: 1, day: 15, hour: 13, weekday: 4 });
    expect(wallTime(Date.UTC(2026, 6, 15, 12), 'Europe/Berlin')).to.include({ hour: 14 });
    expect(wallTime(Date.UTC(2026, 6, 15, 2), 'America/New_York')).to.include({ day: 14, hour: 22, weekday: 2 });
  });

  it('turns a wall-clock reading back into the instant, overflowing days into the next month', () => {
    expect(fromWallTime({ year: 2026, month: 1, day: 15, hour: 3, minute: 0, second: 0 }, 'Europe/Berlin')).to.equal(Date.UTC(2026, 0, 15, 2));
    expect(fromWallTime({ year: 2026, month: 1, day: 32, hour: 0, minute: 0, second: 0 }, 'Asia/Tokyo')).to.equal(Date.UTC(2026, 0, 31, 15));
    expect(fromWallTime({ year: 2026, month: 7, day: 1, hour: 0, minute: 0, second: 0 }, 'UTC')).to.equal(Date.UTC(2026, 6, 1));
  });

  it('lands after a skipped hour and on the first of a doubled one', () => {
    // Berlin skips 02:00-03:00 on 29 March 2026 and has 02:00-03:00 twice on 25 October 2026.
    expect(fromWallTime({ year: 2026, month: 3, day: 29, hour: 2, minute: 30, second: 0 }, 'Europe/Berlin')).to.equal(Date.UTC(2026, 2, 29, 1, 30));
    expect(fromWallTime({ year: 2026, month: 10, day: 25, hour: 2, minute: 30, second: 0 }, 'Europe/Berlin')).to.equal(Date.UTC(2026, 9, 25, 0, 30));
  });

  it('knows which zones the runtime can compute', () => {
    expect(knownToRuntime('Europe/Berlin')).to.equal(true);
    expect(knownToRuntime('Nowhere/Atlantis')).to.equal(false);
  });
});
