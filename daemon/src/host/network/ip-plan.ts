import type { NetworkConfig, NetworkLink } from '../../../../shared/src/api/network/network.ts';

/** `ip -batch` lines: one change of the live state as the kernel holds it, run with `-force` so one failed line does not stop the rest. */
export type IpBatch = string[];

function defaultRoute(gateway: string): string {
  return gateway.includes(':') ? '::/0' : 'default';
}

/** Clears an interface's own addresses and default routes before new ones go on. */
function clear(name: string): IpBatch {
  return [`addr flush dev ${name} scope global`, `route del default dev ${name}`, `route del ::/0 dev ${name}`];
}

function enslave(member: string, bond: string): IpBatch {
  return [`link set ${member} down`, `link set ${member} master ${bond}`, `link set ${member} up`];
}

/** Lines that make the live state what the configuration says, for the interfaces that change. */
export function applyBatch(config: NetworkConfig, links: readonly NetworkLink[], changed: ReadonlySet<string>): IpBatch {
  const exists = (name: string) => links.some((l) => l.name === name);
  const lines: IpBatch = [];
  for (const link of links) {
    const gone =
      (link.kind === 'bond' && !config.bonds.some((b) => b.name === link.name)) || (link.kind === 'vlan' && !config.vlans.some((v) => v.name === link.name));
    if (gone && link.changeable) lines.push(`link del ${link.name}`);
  }
  for (const bond of config.bonds) {
    if (!exists(bond.name)) lines.push(`link add name ${bond.name} type bond mode ${bond.mode}`);
    for (const member of bond.members)
      if (links.find((l) => l.name === member)?.master !== bond.name) lines.push(...clear(member), ...enslave(member, bond.name));
  }
  for (const link of links) {
    if (link.master && !config.bonds.some((b) => b.name === link.master && b.members.includes(link.name))) lines.push(`link set ${link.name} nomaster`);
  }
  for (const vlan of config.vlans) if (!exists(vlan.name)) lines.push(`link add link ${vlan.parent} name ${vlan.name} type vlan id ${vlan.id}`);
  for (const iface of config.interfaces) {
    if (!changed.has(iface.name)) continue;
    lines.push(...clear(iface.name));
    if (iface.method === 'static') lines.push(...iface.addresses.map((a) => `addr add ${a} dev ${iface.name}`));
    lines.push(`link set ${iface.name} up`);
    if (iface.method === 'static' && iface.gateway) lines.push(`route replace ${defaultRoute(iface.gateway)} via ${iface.gateway} dev ${iface.name}`);
  }
  return lines;
}

/** Lines that bring the changed interfaces back to the live state read before the change. */
export function restoreBatch(config: NetworkConfig, before: readonly NetworkLink[], changed: ReadonlySet<string>): IpBatch {
  const existed = (name: string) => before.some((l) => l.name === name);
  const lines: IpBatch = [];
  // Made by the change: removed (a bond's members are released with it).
  for (const vlan of config.vlans) if (!existed(vlan.name)) lines.push(`link del ${vlan.name}`);
  for (const bond of config.bonds) if (!existed(bond.name)) lines.push(`link del ${bond.name}`);
  // Removed by the change: made again as they were, addresses included.
  const remade = new Set<string>();
  for (const link of before) {
    if (link.bond && !config.bonds.some((b) => b.name === link.name)) {
      remade.add(link.name);
      lines.push(`link add name ${link.name} type bond mode ${link.bond.mode}`, ...link.bond.members.flatMap((m) => enslave(m, link.name)));
    }
    if (link.vlan && !config.vlans.some((v) => v.name === link.name)) {
      remade.add(link.name);
      lines.push(`link add link ${link.vlan.parent} name ${link.name} type vlan id ${link.vlan.id}`);
    }
    if (link.master && !config.bonds.some((b) => b.name === link.master && b.members.includes(link.name))) lines.push(...enslave(link.name, link.master));
  }
  for (const link of before) {
    if ((!changed.has(link.name) && !remade.has(link.name)) || link.kind === 'loopback') continue;
    lines.push(...clear(link.name));
    lines.push(...link.addresses.filter((a) => !a.address.startsWith('fe80:')).map((a) => `addr add ${a.address} dev ${link.name}`));
    lines.push(`link set ${link.name} ${link.up ? 'up' : 'down'}`);
    lines.push(...link.gateways.map((g) => `route replace ${defaultRoute(g)} via ${g} dev ${link.name}`));
  }
  return lines;
}
