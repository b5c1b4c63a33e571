import { networkConfig, type NetworkConfig, type NetworkLink } from '../../../../shared/src/api/network/network.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { BackupPart } from '../backup-part.ts';
import { checkRules, normalise } from './network-rules.ts';
import type { NetworkService } from './network.service.ts';

export interface NetworkBackupDeps {
  network: Pick<NetworkService, 'confirmed' | 'pendingChange' | 'links' | 'stage'>;
}

/**
 * The configuration without what names a card this box does not have: its addresses, its place
 * in a bond (a bond left without members goes too), VLANs on it; each left-out name once, in order.
 * Nothing is made up for a missing card: its settings belonged to the box that wrote the backup.
 */
export function leaveOutMissing(config: NetworkConfig, links: readonly NetworkLink[]): { config: NetworkConfig; skipped: string[] } {
  const here = new Set(links.map((l) => l.name));
  // Bonds and VLANs the configuration makes: names of its own, not cards (the rules check them).
  const virtual = new Set([...config.bonds, ...config.vlans].map((x) => x.name));
  const skipped: string[] = [];
  const skip = (name: string): false => {
    if (!skipped.includes(name)) skipped.push(name);
    return false;
  };
  // Bonds and VLANs left out with the cards they stood on: their addresses go with them.
  const gone = new Set<string>();
  const leave = (name: string): false => {
    gone.add(name);
    return skip(name);
  };
  const bonds = config.bonds.flatMap((bond) => {
    for (const member of bond.members) if (!here.has(member)) skip(member);
    const members = bond.members.filter((m) => here.has(m));
    if (members.length > 0) return [{ ...bond, members }];
    leave(bond.name);
    return [];
  });
  const vlans = config.vlans.filter((vlan) => {
    if (gone.has(vlan.parent)) return leave(vlan.name);
    if (here.has(vlan.parent) || virtual.has(vlan.parent)) return true;
    skip(vlan.parent);
    return leave(vlan.name);
  });
  const interfaces = config.interfaces.filter((i) => {
    if (gone.has(i.name)) return false;
    if (here.has(i.name) || virtual.has(i.name)) return true;
    return skip(i.name);
  });
  return { config: { ...config, interfaces, bonds, vlans }, skipped };
}

const same = (a: NetworkConfig, b: NetworkConfig) => JSON.stringify(normalise(a)) === JSON.stringify(normalise(b));

/**
 * The network part of a backup: the confirmed configuration (host name, name servers, cards,
 * bonds, VLANs), never a change awaiting confirmation. Inspected by the rules a change by hand
 * meets, with their codes; restored as a change awaiting confirmation, which rolls itself back
 * after 60 seconds unless the owner keeps it, so a configuration that cuts the box off undoes itself.
 */
export function networkBackupPart(deps: NetworkBackupDeps): BackupPart<NetworkConfig> {
  const { network } = deps;
  return {
    name: 'network',
    export: () => network.confirmed(),
    async inspect(raw) {
      // The schema of PUT /api/system/network: names, addresses and sizes as a request's.
      const { value, error } = networkConfig.validate(raw, { convert: false });
      if (error) throw new ProblemError('backup.part.invalid', { part: 'network' }, { detail: error.message });
      const links = await network.links();
      const { config, skipped } = leaveOutMissing(value, links);
      const checked = checkRules(config, links);
      const counts = {
        interfaces: checked.interfaces.length,
        bonds: checked.bonds.length,
        vlans: checked.vlans.length,
        nameServers: checked.nameServers.length,
      };
      return { data: value, counts, ...(skipped.length > 0 ? { skipped } : {}) };
    },
    async restore(data) {
      // Refused before anything is touched: the restored configuration could not be staged.
      const changeId = await network.pendingChange();
      if (changeId) throw new ProblemError('network.change.pending', { changeId });
      const { skipped } = leaveOutMissing(data, await network.links());
      return skipped.length > 0 ? { skipped } : undefined;
    },
    async apply(data, context) {
      const { config } = leaveOutMissing(data, await network.links());
      // The box has this configuration already: there is nothing to confirm.
      if (same(config, await network.confirmed())) return;
      return { networkChange: await network.stage(config, context.connection, context.userId) };
    },
  };
}
