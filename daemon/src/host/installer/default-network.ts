import { readFile } from 'node:fs/promises';
import type { InstallerNetworkConfig } from '../../../../shared/src/api/installer/installer.ts';
import type { CommandRunner } from '../command-runner.ts';

interface IpRoute {
  dst: string;
  gateway?: string;
  dev?: string;
}
interface IpAddr {
  ifname: string;
  addr_info?: { family: string; local: string; prefixlen: number; dynamic?: boolean }[];
}

/** The name servers of a resolv.conf. */
export function parseResolvConf(text: string): string[] {
  return text
    .split('\n')
    .map((l) => /^\s*nameserver\s+(\S+)/.exec(l)?.[1])
    .filter((n): n is string => n !== undefined);
}

/** The card of the default route with its IPv4 address, gateway and name servers: what the medium uses now. */
export async function readDefaultNetwork(runner: CommandRunner): Promise<InstallerNetworkConfig | null> {
  const routes = JSON.parse((await runner.read(['ip', '-j', '-4', 'route', 'show', 'default'])).stdout || '[]') as IpRoute[];
  const route = routes.find((r) => r.dev);
  if (!route?.dev) return null;
  const addrs = JSON.parse((await runner.read(['ip', '-j', '-4', 'addr', 'show', 'dev', route.dev])).stdout || '[]') as IpAddr[];
  const addr = addrs[0]?.addr_info?.find((a) => a.family === 'inet');
  const nameservers = parseResolvConf(await readFile('/etc/resolv.conf', 'utf8').catch(() => '')).slice(0, 4);
  if (!addr || addr.dynamic) return { interface: route.dev, method: 'dhcp', address: null, gateway: null, nameservers };
  return { interface: route.dev, method: 'static', address: `${addr.local}/${addr.prefixlen}`, gateway: route.gateway ?? null, nameservers };
}

/** Names of the medium's network cards, loopback left out. */
export async function interfaceNames(runner: CommandRunner): Promise<string[]> {
  const links = JSON.parse((await runner.read(['ip', '-j', 'link', 'show'])).stdout || '[]') as { ifname: string }[];
  return links.map((l) => l.ifname).filter((n) => n !== 'lo');
}
