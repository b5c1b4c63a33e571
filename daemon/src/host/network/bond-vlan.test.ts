import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { NetworkConfig } from '../../../../shared/src/api/network/network.ts';
import { configFromLive } from '../../areas/network/network-rules.ts';
import { applyBatch, restoreBatch } from './ip-plan.ts';
import { parseIpState, type IpOutput } from './ip-state.ts';
import { networkdFiles } from './networkd-files.ts';

// This kernel has no bonding and no 8021q ("Unknown device type"), so bonds and VLANs cannot be made
// here. Their parsing, files and ip lines are tested against `ip -j -d link`, `ip -j addr` and
// `ip -j route show default` output of a box with a bond of two cards and a VLAN on it, written in the
// exact shape iproute2's JSON printers give (ip/iplink_bond.c, ip/iplink_vlan.c); no system test creates them.
const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', `bond-vlan-${name}.json`), 'utf8'));
const out: IpOutput = {
  links: fixture('link') as IpOutput['links'],
  addrs: fixture('addr') as IpOutput['addrs'],
  routes: fixture('route') as IpOutput['routes'],
};

describe('bonds and VLANs: parsed from ip -j, written as networkd files and ip lines', () => {
  const links = parseIpState(out, (name) => (name === 'eno1' || name === 'eno2' ? 1000 : null));
  const byName = (name: string) => links.find((l) => l.name === name)!;

  it('reads the bond with its mode and members, the VLAN with its parent and id, and locks bridges', () => {
    expect(byName('bond0')).to.deep.include({
      kind: 'bond',
      changeable: true,
      bond: { mode: '802.3ad', members: ['eno1', 'eno2'] },
      gateways: ['192.168.10.1'],
    });
    expect(byName('bond0').addresses).to.deep.equal([
      { address: '192.168.10.5/24', family: 4, dynamic: false },
      { address: 'fe80::3eec:efff:fe10:2030/64', family: 6, dynamic: true },
    ]);
    expect(byName('bond0.20')).to.deep.include({ kind: 'vlan', vlan: { parent: 'bond0', id: 20 }, gateways: ['10.20.0.1'] });
    expect(byName('eno1')).to.deep.include({ kind: 'ethernet', master: 'bond0', speedMbps: 1000, carrier: true });
    expect(byName('eno3')).to.deep.include({ carrier: false, up: true, speedMbps: null });
    expect(byName('docker0')).to.deep.include({ kind: 'virtual', changeable: false });
    expect(byName('lo')).to.deep.include({ kind: 'loopback', changeable: false, mac: null });
  });

  it('derives the configured state from it: static bond, DHCP VLAN, an idle card; members are configured through the bond', () => {
    const config = configFromLive(links, 'nas', ['192.168.10.1']);
    expect(config.bonds).to.deep.equal([{ name: 'bond0', mode: '802.3ad', members: ['eno1', 'eno2'] }]);
    expect(config.vlans).to.deep.equal([{ name: 'bond0.20', parent: 'bond0', id: 20 }]);
    expect(config.interfaces).to.deep.equal([
      { name: 'bond0', method: 'static', addresses: ['192.168.10.5/24'], gateway: '192.168.10.1' },
      { name: 'bond0.20', method: 'dhcp', addresses: [], gateway: null },
      { name: 'eno3', method: 'off', addresses: [], gateway: null },
    ]);
  });

  const config: NetworkConfig = {
    hostName: 'nas',
    nameServers: [],
    interfaces: [
      { name: 'bond1', method: 'static', addresses: ['192.168.20.5/24'], gateway: '192.168.20.1' },
      { name: 'bond1.30', method: 'dhcp', addresses: [], gateway: null },
    ],
    bonds: [{ name: 'bond1', mode: 'active-backup', members: ['eno1', 'eno3'] }],
    vlans: [{ name: 'bond1.30', parent: 'bond1', id: 30 }],
  };

  it('writes a .netdev per bond and VLAN and a .network per interface, member and parent', () => {
    const files = networkdFiles(config);
    expect([...files.keys()].sort()).to.deep.equal(
      [
        '10-cellar-bond1.30.netdev',
        '10-cellar-bond1.30.network',
        '10-cellar-bond1.netdev',
        '10-cellar-bond1.network',
        '10-cellar-eno1.network',
        '10-cellar-eno3.network',
      ].map((f) => `etc/systemd/network/${f}`),
    );
    const file = (name: string) => files.get(`etc/systemd/network/10-cellar-${name}`)!;
    expect(file('bond1.netdev')).to.include('[NetDev]\nName=bond1\nKind=bond\n').and.include('[Bond]\nMode=active-backup\n');
    expect(file('bond1.30.netdev')).to.include('Kind=vlan').and.include('[VLAN]\nId=30\n');
    expect(file('bond1.network')).to.include('Address=192.168.20.5/24\nGateway=192.168.20.1\n').and.include('VLAN=bond1.30');
    expect(file('eno1.network')).to.include('[Match]\nName=eno1\n').and.include('Bond=bond1').and.not.include('Address=');
    expect(file('bond1.30.network')).to.include('DHCP=yes');
  });

  it('applies with ip lines that replace the old bond and VLAN, and restores them as they were', () => {
    const changed = new Set(['bond1', 'bond1.30', 'eno1', 'eno3']);
    const apply = applyBatch(config, links, changed);
    expect(apply).to.include.members([
      'link del bond0',
      'link del bond0.20',
      'link add name bond1 type bond mode active-backup',
      'link set eno1 master bond1',
      'link set eno3 master bond1',
      'link set eno2 nomaster',
      'link add link bond1 name bond1.30 type vlan id 30',
      'addr add 192.168.20.5/24 dev bond1',
      'route replace default via 192.168.20.1 dev bond1',
    ]);
    expect(apply.indexOf('link add name bond1 type bond mode active-backup')).to.be.lessThan(
      apply.indexOf('link add link bond1 name bond1.30 type vlan id 30'),
    );
    const restore = restoreBatch(config, links, changed);
    expect(restore).to.include.members([
      'link del bond1.30',
      'link del bond1',
      'link add name bond0 type bond mode 802.3ad',
      'link set eno1 master bond0',
      'link set eno2 master bond0',
      'link add link bond0 name bond0.20 type vlan id 20',
      'addr add 192.168.10.5/24 dev bond0',
      'route replace default via 192.168.10.1 dev bond0',
      'addr add 10.20.0.17/16 dev bond0.20',
    ]);
  });
});
