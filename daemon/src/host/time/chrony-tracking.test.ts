import { expect } from 'chai';
import { parseTracking } from './chrony-tracking.ts';

// Recorded from chrony 4.3 (`chronyc -c -n tracking`): following a server, and just started without a source.
const synced = 'A29FC87B,162.159.200.123,3,1795330800.123456789,-0.000012345,0.000004567,0.000021000,-12.345,-0.001,0.012,0.012345678,0.001234567,64.5,Normal';
const unsynced = '00000000,,0,0.000000000,0.000000000,0.000000000,0.000000000,0.000,0.000,0.000,1.000000000,1.000000000,0.0,Not synchronised';

describe('chronyc tracking', () => {
  it('reads the source, stratum and offset of a synchronised chronyd', () => {
    expect(parseTracking(synced)).to.deep.equal({ state: 'synchronized', source: '162.159.200.123', stratum: 3, offsetSeconds: -0.000012345, package: null });
  });

  it('says unsynchronized when chronyd has no source yet, or answers something unexpected', () => {
    expect(parseTracking(unsynced)).to.deep.include({ state: 'unsynchronized', source: null });
    expect(parseTracking('')).to.deep.include({ state: 'unsynchronized' });
  });
});
