import type { InterfaceConfig, NetworkConfig, NetworkLink } from '../../../../shared/src/api/network/network.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { contains, hostPart, overlaps, parseCidr, subnetOf, type Cidr } from './cidr.ts';

// RFC 1123 labels: letters, digits and inner hyphens, at most 63 each, 253 in all.
const label = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export function validHostName(name: string): boolean {
  return name.length > 0 && name.length <= 253 && name.split('.').every((l) => label.test(l));
}

/** The stored form: lower-case names, sorted lists, no addresses or gateway where the method has none. */
export function normalise(config: NetworkConfig): NetworkConfig {
  const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);
  return {
    hostName: config.hostName.toLowerCase(),
    nameServers: config.nameServers.map((s) => s.toLowerCase()),
    interfaces: config.interfaces
      .map((i): InterfaceConfig => {
        const isStatic = i.method === 'static';
        return {
          name: i.name,
          method: i.method,
          addresses: isStatic ? i.addresses.map((a) => a.toLowerCase()) : [],
          gateway: isStatic ? (i.gateway?.toLowerCase() ?? null) : null,
        };
      })
      .sort(byName),
    bonds: config.bonds.map((b) => ({ ...b, members: [...b.members].sort() })).sort(byName),
    vlans: [...config.vlans].sort(byName),
  };
}

function cidr(text: string): Cidr {
  const parsed = parseCidr(text);
  // The schema let only addresses with a prefix through; anything else is a bug here.
  if (!parsed) throw new Error(`not an address with a prefix: ${text}`);
  return parsed;
}

/**
 * Every rule a configuration must meet against the box's links, checked before anything is
 * touched; the first broken one throws its code.
 */
export function checkRules(raw: NetworkConfig, links: readonly NetworkLink[]): NetworkConfig {
  if (!validHostName(raw.hostName.toLowerCase())) throw new ProblemError('network.hostname.invalid', { hostName: raw.hostName });
  const config = normalise(raw);
  const link = (name: string) => links.find((l) => l.name === name);
  const seen = new Set<string>();
  const claim = (name: string) => {
    if (seen.has(name)) throw new ProblemError('network.interface.duplicate', { interface: name });
    seen.add(name);
  };
  const virtualNames = new Set([...config.bonds.map((b) => b.name), ...config.vlans.map((v) => v.name)]);
  for (const name of virtualNames) {
    const existing = link(name);
    // A new bond or VLAN may not take the name of a card (or of another kind of link).
    if (existing && existing.kind !== 'bond' && existing.kind !== 'vlan') throw new ProblemError('network.interface.duplicate', { interface: name });
  }
  for (const bond of config.bonds) {
    claim(bond.name);
    for (const member of bond.members) {
      const card = link(member);
      if (!card || card.kind !== 'ethernet' || !card.changeable) throw new ProblemError('network.bond.member_invalid', { bond: bond.name, member });
    }
  }
  for (const vlan of config.vlans) {
    claim(vlan.name);
    const parent = link(vlan.parent);
    const parentIsBond = config.bonds.some((b) => b.name === vlan.parent);
    const parentIsCard = parent !== undefined && parent.changeable && (parent.kind === 'ethernet' || (parent.kind === 'bond' && parentIsBond));
    if (!parentIsBond && !parentIsCard) throw new ProblemError('network.vlan.parent_missing', { vlan: vlan.name, parent: vlan.parent });
  }
  const members = new Set(config.bonds.flatMap((b) => b.members));
  for (const member of members) claim(member);
  const configured = new Set<string>();
  for (const iface of config.interfaces) {
    if (configured.has(iface.name) || members.has(iface.name)) throw new ProblemError('network.interface.duplicate', { interface: iface.name });
    configured.add(iface.name);
    if (!virtualNames.has(iface.name)) {
      const existing = link(iface.name);
      if (!existing) throw new ProblemError('network.interface.unknown', { interface: iface.name });
      if (!existing.changeable || existing.kind !== 'ethernet') throw new ProblemError('network.interface.locked', { interface: iface.name });
    }
  }
  const subnets = config.interfaces.flatMap((i) => i.addresses.map((a) => ({ iface: i.name, cidr: cidr(a) })));
  for (const [n, a] of subnets.entries()) {
    for (const b of subnets.slice(n + 1)) {
      if (a.iface !== b.iface && overlaps(a.cidr, b.cidr))
        throw new ProblemError('network.subnet.overlap', { interface: a.iface, other: b.iface, subnet: subnetOf(a.cidr) });
    }
  }
  for (const iface of raw.interfaces) {
    if (iface.gateway === null) continue;
    const gateway = cidr(iface.gateway);
    const inside = iface.method === 'static' && iface.addresses.some((a) => contains(cidr(a), gateway));
    if (!inside) throw new ProblemError('network.gateway.outside_subnet', { interface: iface.name, gateway: iface.gateway });
  }
  return config;
}

/** The names whose addresses, membership or existence differ between two configurations. */
export function changedInterfaces(before: NetworkConfig, after: NetworkConfig): Set<string> {
  const changed = new Set<string>();
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  for (const list of ['interfaces', 'bonds', 'vlans'] as const) {
    const names = new Set([...before[list], ...after[list]].map((x) => x.name));
    for (const name of names) {
      const a = (before[list] as { name: string }[]).find((x) => x.name === name);
      const b = (after[list] as { name: string }[]).find((x) => x.name === name);
      // Left out of the new configuration: Cellar stops managing it and leaves its live state alone.
      if (b && !same(a, b)) changed.add(name);
    }
  }
  for (const bond of after.bonds) if (changed.has(bond.name)) for (const m of bond.members) changed.add(m);
  return changed;
}

/** What the box runs now, in the stored form: the first configuration before Cellar kept one. */
export function configFromLive(links: readonly NetworkLink[], hostName: string, nameServers: string[]): NetworkConfig {
  const interfaces = links
    .filter((l) => l.changeable && l.master === null)
    .map((l): InterfaceConfig => {
      const global = l.addresses.filter((a) => !a.address.startsWith('fe80:'));
      const fixed = global.filter((a) => !a.dynamic).map((a) => a.address);
      const gateway = l.gateways.find((g) => fixed.some((a) => contains(cidr(a), cidr(g)))) ?? null;
      if (fixed.length > 0) return { name: l.name, method: 'static', addresses: fixed, gateway };
      return { name: l.name, method: global.length > 0 ? 'dhcp' : 'off', addresses: [], gateway: null };
    });
  return normalise({
    hostName: validHostName(hostName) ? hostName : 'cellar',
    nameServers,
    interfaces,
    bonds: links.filter((l) => l.bond).map((l) => ({ name: l.name, mode: l.bond!.mode as 'balance-rr', members: l.bond!.members })),
    vlans: links.filter((l) => l.vlan).map((l) => ({ name: l.name, parent: l.vlan!.parent, id: l.vlan!.id })),
  });
}

/** Static addresses of the changed interfaces, without prefix: where the box answers afterwards. */
export function addressesToOpen(config: NetworkConfig, changed: ReadonlySet<string>): string[] {
  return config.interfaces.filter((i) => changed.has(i.name) && i.method === 'static').flatMap((i) => i.addresses.map(hostPart));
}
