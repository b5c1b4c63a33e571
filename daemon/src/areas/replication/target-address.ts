import { isIP } from 'node:net';

export interface TargetAddress {
  /** A host name or an IP address (an IPv6 one without its brackets). */
  host: string;
  port: number;
}

const hostName = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** Reads `host[:port]` or `[ipv6][:port]` as an owner types it; null for anything else (paths, users, schemes). */
export function parseTargetAddress(text: string): TargetAddress | null {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(text.trim());
  if (!match) return null;
  const host = match[1] ?? match[2]!;
  if (match[1] !== undefined ? isIP(host) !== 6 : !hostName.test(host)) return null;
  const port = match[3] === undefined ? 443 : Number(match[3]);
  return port >= 1 && port <= 65535 ? { host, port } : null;
}

/** The address again as typed in a URL or shown: IPv6 in brackets, the port when it is not 443. */
export function formatTargetAddress({ host, port }: TargetAddress): string {
  const shown = isIP(host) === 6 ? `[${host}]` : host;
  return port === 443 ? shown : `${shown}:${port}`;
}
