import type { AddressMethod, BondMode, NetworkConfig, NetworkState } from '../../../../../shared/src/api/network/network.ts';

/** One interface's addresses as the form edits them: the addresses one a line. */
export interface InterfaceForm {
  name: string;
  method: AddressMethod;
  addressesText: string;
  gateway: string;
}

export interface NetworkForm {
  hostName: string;
  nameServersText: string;
  interfaces: InterfaceForm[];
  bonds: { name: string; mode: BondMode; members: string[] }[];
  vlans: { name: string; parent: string; id: number }[];
}

const lines = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** The form of the configured state, with an entry for every changeable card not yet configured. */
export function formOf(state: NetworkState): NetworkForm {
  const { configured } = state;
  const interfaces: InterfaceForm[] = configured.interfaces.map((i) => ({
    name: i.name,
    method: i.method,
    addressesText: i.addresses.join('\n'),
    gateway: i.gateway ?? '',
  }));
  const members = new Set(configured.bonds.flatMap((b) => b.members));
  for (const link of state.links) {
    if (link.kind === 'ethernet' && link.changeable && !members.has(link.name) && !interfaces.some((i) => i.name === link.name)) {
      interfaces.push({ name: link.name, method: 'off', addressesText: '', gateway: '' });
    }
  }
  return {
    hostName: configured.hostName,
    nameServersText: configured.nameServers.join('\n'),
    interfaces,
    bonds: configured.bonds.map((b) => ({ ...b, members: [...b.members] })),
    vlans: configured.vlans.map((v) => ({ ...v })),
  };
}

/** The configuration the form stands for: bond members are configured through their bond only. */
export function configOf(form: NetworkForm): NetworkConfig {
  const members = new Set(form.bonds.flatMap((b) => b.members));
  return {
    hostName: form.hostName.trim(),
    nameServers: lines(form.nameServersText),
    interfaces: form.interfaces
      .filter((i) => !members.has(i.name))
      .map((i) => ({
        name: i.name,
        method: i.method,
        addresses: i.method === 'static' ? lines(i.addressesText) : [],
        gateway: i.method === 'static' && i.gateway.trim() !== '' ? i.gateway.trim() : null,
      })),
    bonds: form.bonds,
    vlans: form.vlans.map((v) => ({ ...v, id: Number(v.id) })),
  };
}

/** Seconds left until a deadline, counted on this browser's clock from the moment the answer came. */
export function secondsLeft(deadline: string, createdAt: string, receivedAt: number, now: number): number {
  const window = Date.parse(deadline) - Date.parse(createdAt);
  return Math.max(0, Math.ceil((receivedAt + window - now) / 1000));
}
