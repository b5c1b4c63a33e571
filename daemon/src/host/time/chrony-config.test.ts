import { expect } from 'chai';
import { distributionServers, parseSources, renderSources, toggleDistributionSources } from './chrony-config.ts';

const debian = ['confdir /etc/chrony/conf.d', 'pool 2.debian.pool.ntp.org iburst', 'sourcedir /etc/chrony/sources.d', 'makestep 1 3', ''].join('\n');

describe('chrony configuration', () => {
  it("switches the distribution's pool off and on again, byte for byte", () => {
    const off = toggleDistributionSources(debian, false);
    expect(off).to.contain('#cellar-off# pool 2.debian.pool.ntp.org iburst');
    expect(toggleDistributionSources(off, false)).to.equal(off);
    expect(distributionServers(off)).to.deep.equal(['2.debian.pool.ntp.org']);
    expect(toggleDistributionSources(off, true)).to.equal(debian);
  });

  it('reads back the servers it writes', () => {
    expect(parseSources(renderSources(['ntp.example.org', '192.0.2.1']))).to.deep.equal(['ntp.example.org', '192.0.2.1']);
    expect(parseSources('')).to.deep.equal([]);
  });
});
