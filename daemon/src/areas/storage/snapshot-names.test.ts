import { expect } from 'chai';
import { compactUtc, parseServiceName, periodStart, serviceSnapshotName, snapshotsToPrune, type PruneCandidate } from './snapshot-names.ts';

const hour = 3600_000;
const t0 = Date.UTC(2026, 10, 22, 10, 30); // a Sunday

describe('snapshot names and pruning', () => {
  it('names service snapshots by kind and UTC time and reads them back', () => {
    expect(compactUtc(t0)).to.equal('20261122T103000Z');
    expect(serviceSnapshotName('manual', t0)).to.equal('service-manual-20261122T103000Z');
    expect(parseServiceName('service-daily-20261122T000000Z')).to.deep.equal({ kind: 'daily', at: Date.UTC(2026, 10, 22) });
    expect(parseServiceName('autosnap_2026-11-22')).to.equal(null);
    expect(parseServiceName('service-yearly-20261122T000000Z')).to.equal(null);
  });

  it('cuts UTC hours, days, weeks from Monday and months', () => {
    expect(periodStart('hourly', t0)).to.equal(Date.UTC(2026, 10, 22, 10));
    expect(periodStart('daily', t0)).to.equal(Date.UTC(2026, 10, 22));
    expect(periodStart('weekly', t0)).to.equal(Date.UTC(2026, 10, 16)); // Monday before
    expect(periodStart('weekly', Date.UTC(2026, 10, 16, 0, 0, 1))).to.equal(Date.UTC(2026, 10, 16));
    expect(periodStart('monthly', t0)).to.equal(Date.UTC(2026, 10, 1));
  });

  it("cuts periods at the box zone's midnights", () => {
    // 10:30 UTC on Sunday 22 November is 19:30 in Tokyo and 05:30 in New York; 10:10 UTC is 15:40 in Kolkata.
    expect(periodStart('daily', t0, 'Asia/Tokyo')).to.equal(Date.UTC(2026, 10, 21, 15));
    expect(periodStart('hourly', Date.UTC(2026, 10, 22, 10, 10), 'Asia/Kolkata')).to.equal(Date.UTC(2026, 10, 22, 9, 30));
    expect(periodStart('weekly', t0, 'America/New_York')).to.equal(Date.UTC(2026, 10, 16, 5));
    expect(periodStart('monthly', t0, 'Europe/Berlin')).to.equal(Date.UTC(2026, 9, 31, 23));
  });

  it('prunes only its own snapshots beyond keep, never held ones, never future-dated ones', () => {
    const own = (i: number, extra: Partial<PruneCandidate> = {}): PruneCandidate => ({
      name: serviceSnapshotName('hourly', t0 - i * hour),
      recordedKind: 'hourly',
      holds: 0,
      ...extra,
    });
    const snapshots: PruneCandidate[] = [
      own(0),
      own(1),
      own(2),
      own(3, { holds: 1 }),
      own(4),
      own(-5), // dated after now
      { name: serviceSnapshotName('daily', t0 - 10 * hour), recordedKind: 'daily', holds: 0 },
      { name: serviceSnapshotName('manual', t0 - 20 * hour), recordedKind: 'manual', holds: 0 },
      { name: 'before-upgrade', recordedKind: null, holds: 0 },
      // Named like ours but not marked by the service: someone else's.
      { name: serviceSnapshotName('hourly', t0 - 30 * hour), recordedKind: null, holds: 0 },
    ];
    expect(snapshotsToPrune(snapshots, 'hourly', 2, t0)).to.deep.equal([own(2).name, own(4).name]);
    expect(snapshotsToPrune(snapshots, 'hourly', 10, t0)).to.deep.equal([]);
  });

  it('prunes 10,000 snapshots quickly', () => {
    const many: PruneCandidate[] = Array.from({ length: 10_000 }, (_, i) => ({
      name: serviceSnapshotName('hourly', t0 - i * hour),
      recordedKind: 'hourly',
      holds: 0,
    }));
    const started = performance.now();
    const doomed = snapshotsToPrune(many, 'hourly', 24, t0);
    expect(doomed).to.have.length(10_000 - 24);
    expect(performance.now() - started).to.be.below(500);
  });
});
