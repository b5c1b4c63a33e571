import { hostname, networkInterfaces } from 'node:os';

/** What the box knows of itself on the network. */
export interface HostIdentity {
  hostname: string;
  addresses: string[];
}

/** The machine's host name and every address of its interfaces, read fresh on each call (DHCP may change them). */
export function hostIdentity(): HostIdentity {
  const addresses = Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((entry) => entry.address);
  return { hostname: hostname(), addresses: [...new Set(addresses)] };
}
