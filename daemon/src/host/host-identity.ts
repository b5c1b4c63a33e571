import { hostname, networkInterfaces } from 'node:os';
import type { HostIdentity } from '../areas/tls/box-names.ts';

/** The machine's host name and every address of its interfaces, read fresh on each call (DHCP may change them). */
export function hostIdentity(): HostIdentity {
  const addresses = Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((entry) => entry.address);
  return { hostname: hostname(), addresses: [...new Set(addresses)] };
}
