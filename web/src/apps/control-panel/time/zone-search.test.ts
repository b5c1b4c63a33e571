import { expect } from 'chai';
import { matchZones } from './zone-search.ts';

const zones = ['America/New_York', 'Europe/Berlin', 'Europe/Vienna', 'Pacific/Auckland', 'UTC', 'America/North_Dakota/New_Salem'];

describe('time zone search', () => {
  it('offers every zone for an empty query', () => {
    expect(matchZones(zones, ' ')).to.deep.equal(zones);
  });

  it('matches parts of the name in any case, spaces for underscores, cities that start with the query first', () => {
    expect(matchZones(zones, 'berl')).to.deep.equal(['Europe/Berlin']);
    expect(matchZones(zones, 'NEW york')).to.deep.equal(['America/New_York']);
    expect(matchZones(zones, 'new')).to.deep.equal(['America/New_York', 'America/North_Dakota/New_Salem']);
    expect(matchZones(zones, 'europe')).to.deep.equal(['Europe/Berlin', 'Europe/Vienna']);
    expect(matchZones(zones, 'nowhere')).to.deep.equal([]);
  });
});
