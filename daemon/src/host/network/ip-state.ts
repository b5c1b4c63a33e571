import type { LinkKind, NetworkLink } from '../../../../shared/src/api/network/network.ts';

/** The fields of `ip -j -d link show` the daemon reads. */
export interface IpLink {
  ifname: string;
  flags?: string[];
  mtu?: number;
  link_type?: string;
  address?: string;
  master?: string;
  /** The parent of a VLAN (the peer of a veth when it sits in the same namespace). */
  link?: string | null;
  linkinfo?: { info_kind?: string; info_data?: { mode?: string; id?: number }; info_slave_kind?: string };
}

/** The fields of `ip -j addr show`. */
export interface IpAddr {
  ifname: string;
  addr_info?: { family?: string; local?: string; prefixlen?: number; scope?: string; dynamic?: boolean }[];
}

/** The fields of `ip -j route show default` (and `-6`). */
export interface IpRoute {
  dst?: string;
  gateway?: string;
  dev?: string;
}

export interface IpOutput {
  links: IpLink[];
  addrs: IpAddr[];
  routes: IpRoute[];
}

// Bridges, tunnels, WireGuard and the like belong to apps or other tools: shown, never changed here.
const changeableKinds: readonly LinkKind[] = ['ethernet', 'bond', 'vlan'];

function kindOf(link: IpLink): LinkKind {
  if (link.link_type === 'loopback') return 'loopback';
  const kind = link.linkinfo?.info_kind;
  if (kind === 'bond' || kind === 'vlan') return kind;
  // A veth is a container's or a namespace's card; docker names its host ends veth*, which stay apps' own.
  if (kind === 'veth') return link.ifname.startsWith('veth') ? 'virtual' : 'ethernet';
  return kind === undefined && link.link_type === 'ether' ? 'ethernet' : 'virtual';
}

/**
 * The links as the kernel reports them, with bonds, VLANs, addresses and default routes joined in.
 * `speed` answers the link speed of a name (from /sys/class/net), when known.
 */
export function parseIpState(out: IpOutput, speed: (name: string) => number | null): NetworkLink[] {
  const links = out.links.map((link): NetworkLink => {
    const kind = kindOf(link);
    const flags = link.flags ?? [];
    const addrInfo = out.addrs.find((a) => a.ifname === link.ifname)?.addr_info ?? [];
    return {
      name: link.ifname,
      kind,
      mac: kind === 'loopback' ? null : (link.address ?? null),
      up: flags.includes('UP'),
      carrier: flags.includes('LOWER_UP'),
      speedMbps: kind === 'loopback' ? null : speed(link.ifname),
      mtu: link.mtu ?? 1500,
      addresses: addrInfo
        .filter((a) => (a.family === 'inet' || a.family === 'inet6') && a.local && a.prefixlen !== undefined)
        .map((a) => ({ address: `${a.local}/${a.prefixlen}`, family: a.family === 'inet' ? 4 : 6, dynamic: a.dynamic === true || a.scope === 'link' })),
      gateways: out.routes.filter((r) => r.dev === link.ifname && r.gateway && (r.dst === 'default' || r.dst === undefined)).map((r) => r.gateway!),
      changeable: changeableKinds.includes(kind),
      master: link.master ?? null,
      bond:
        kind === 'bond'
          ? { mode: link.linkinfo?.info_data?.mode ?? 'balance-rr', members: out.links.filter((l) => l.master === link.ifname).map((l) => l.ifname) }
          : null,
      vlan: kind === 'vlan' && link.link ? { parent: link.link, id: link.linkinfo?.info_data?.id ?? 0 } : null,
    };
  });
  return links.sort((a, b) => a.name.localeCompare(b.name));
}
