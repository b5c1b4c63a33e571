import { expect } from 'chai';
import type { NetworkConfig, NetworkLink } from '../../../../shared/src/api/network/network.ts';
import { leaveOutMissing } from './network.backup.ts';

const card = (name: string): NetworkLink => ({
  name,
  kind: 'ethernet',
  mac: null,
  up: true,
  carrier: true,
  speedMbps: null,
  mtu: 1500,
  addresses: [],
  gateways: [],
  changeable: true,
  master: null,
  bond: null,
  vlan: null,
});
const dhcp = (name: string) => ({ name, method: 'dhcp' as const, addresses: [], gateway: null });
const base: NetworkConfig = { hostName: 'cellar', nameServers: [], interfaces: [], bonds: [], vlans: [] };

describe('network backup part: interfaces this box does not have', () => {
  const links = [card('eth0'), card('eth1')];

  it('keeps a configuration whose every name is here, as it is', () => {
    const config: NetworkConfig = {
      ...base,
      interfaces: [dhcp('bond0'), dhcp('bond0.5')],
      bonds: [{ name: 'bond0', mode: 'active-backup', members: ['eth0', 'eth1'] }],
      vlans: [{ name: 'bond0.5', parent: 'bond0', id: 5 }],
    };
    expect(leaveOutMissing(config, links)).to.deep.equal({ config, skipped: [] });
  });

  it('drops a missing bond member and keeps the bond with the others', () => {
    const config: NetworkConfig = { ...base, interfaces: [dhcp('bond0')], bonds: [{ name: 'bond0', mode: '802.3ad', members: ['eth0', 'eth9'] }] };
    const { config: kept, skipped } = leaveOutMissing(config, links);
    expect(kept.bonds).to.deep.equal([{ name: 'bond0', mode: '802.3ad', members: ['eth0'] }]);
    expect(kept.interfaces).to.deep.equal([dhcp('bond0')]);
    expect(skipped).to.deep.equal(['eth9']);
  });

  it('drops a bond without members here, and the VLANs and addresses standing on it', () => {
    const config: NetworkConfig = {
      ...base,
      interfaces: [dhcp('eth0'), dhcp('bond1'), dhcp('bond1.7')],
      bonds: [{ name: 'bond1', mode: 'active-backup', members: ['eth8', 'eth9'] }],
      vlans: [{ name: 'bond1.7', parent: 'bond1', id: 7 }],
    };
    const { config: kept, skipped } = leaveOutMissing(config, links);
    expect(kept).to.deep.equal({ ...base, interfaces: [dhcp('eth0')], bonds: [], vlans: [] });
    expect(skipped).to.deep.equal(['eth8', 'eth9', 'bond1', 'bond1.7']);
  });

  it('leaves a VLAN on a VLAN to the rules, which refuse it, instead of dropping it as missing', () => {
    const config: NetworkConfig = {
      ...base,
      vlans: [
        { name: 'v5', parent: 'eth0', id: 5 },
        { name: 'v6', parent: 'v5', id: 6 },
      ],
    };
    expect(leaveOutMissing(config, links)).to.deep.equal({ config, skipped: [] });
  });
});
