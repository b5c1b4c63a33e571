import path from 'node:path';
import type { NetworkConfig } from '../../../../shared/src/api/network/network.ts';

/** Where systemd-networkd reads its files, and the prefix of the ones Cellar owns there. */
export const networkDir = 'etc/systemd/network';
export const ownPrefix = '10-cellar-';
const header = '# Written by Cellar (System, Network): replaced at the next network change.\n';

function section(name: string, lines: (string | null)[]): string {
  const body = lines.filter((l): l is string => l !== null);
  return body.length === 0 ? '' : `\n[${name}]\n${body.join('\n')}\n`;
}

/**
 * The systemd-networkd files of a configuration, by path relative to the root: one .network per
 * configured card, bond member and VLAN parent, one .netdev per bond and VLAN.
 */
export function networkdFiles(config: NetworkConfig): Map<string, string> {
  const files = new Map<string, string>();
  const file = (name: string, ext: 'network' | 'netdev') => path.join(networkDir, `${ownPrefix}${name}.${ext}`);
  const memberOf = new Map(config.bonds.flatMap((b) => b.members.map((m) => [m, b.name] as const)));
  const names = new Set([...config.interfaces.map((i) => i.name), ...memberOf.keys(), ...config.vlans.map((v) => v.parent)]);
  for (const name of [...names].sort()) {
    const iface = config.interfaces.find((i) => i.name === name);
    const bond = memberOf.get(name);
    const method = bond ? 'off' : (iface?.method ?? 'off');
    const network = [
      method === 'dhcp' ? 'DHCP=yes' : null,
      ...(method === 'static' ? (iface?.addresses ?? []).map((a) => `Address=${a}`) : []),
      method === 'static' && iface?.gateway ? `Gateway=${iface.gateway}` : null,
      ...(method === 'off' ? ['LinkLocalAddressing=no', 'IPv6AcceptRA=no'] : []),
      bond ? `Bond=${bond}` : null,
      ...config.vlans.filter((v) => v.parent === name).map((v) => `VLAN=${v.name}`),
    ];
    files.set(file(name, 'network'), header + section('Match', [`Name=${name}`]) + section('Network', network));
  }
  for (const bond of config.bonds) {
    files.set(file(bond.name, 'netdev'), header + section('NetDev', [`Name=${bond.name}`, 'Kind=bond']) + section('Bond', [`Mode=${bond.mode}`]));
  }
  for (const vlan of config.vlans) {
    files.set(file(vlan.name, 'netdev'), header + section('NetDev', [`Name=${vlan.name}`, 'Kind=vlan']) + section('VLAN', [`Id=${vlan.id}`]));
  }
  return files;
}

/** /etc/resolv.conf with the name servers (none: the file stays as the box had it). */
export function resolvConf(nameServers: readonly string[]): string {
  return `# Written by Cellar (System, Network)\n${nameServers.map((s) => `nameserver ${s}`).join('\n')}\n`;
}

/** The name servers of a resolv.conf. */
export function readNameServers(text: string): string[] {
  return text
    .split('\n')
    .map((l) => /^\s*nameserver\s+(\S+)/.exec(l)?.[1])
    .filter((s): s is string => s !== undefined);
}
