import type { CommandRunner } from '../command-runner.ts';

export interface OpenPort {
  port: number;
  protocols: ('tcp' | 'udp')[];
}

/** The proxy's own table: only the streams' ports, never the rest of the box's firewall. */
export const streamTable = 'cellar_proxy';

/**
 * The ruleset that replaces the table in one transaction: made (so deleting it cannot fail),
 * deleted, and made again with the open ports, or left away when there are none.
 */
export function renderStreamRules(ports: readonly OpenPort[]): string {
  const lines = [`table inet ${streamTable}`, `delete table inet ${streamTable}`];
  if (ports.length === 0) return lines.join('\n') + '\n';
  const of = (protocol: 'tcp' | 'udp') => ports.filter((p) => p.protocols.includes(protocol)).map((p) => p.port);
  const accepts = (['tcp', 'udp'] as const).filter((p) => of(p).length > 0).map((p) => `    ${p} dport { ${of(p).join(', ')} } accept`);
  lines.push(`table inet ${streamTable} {`, '  chain input {', '    type filter hook input priority filter; policy accept;', ...accepts, '  }', '}');
  return lines.join('\n') + '\n';
}

export interface StreamFirewallDeps {
  runner: CommandRunner;
  /** Runs nft inside this network namespace (system tests make their own). */
  netns?: string;
}

/** Opens the streams' ports with nftables; in development mode the runner only logs the ruleset. */
export class StreamFirewall {
  constructor(private readonly deps: StreamFirewallDeps) {}

  async apply(ports: readonly OpenPort[]): Promise<void> {
    const nft = ['nft', '-f', '-'];
    const argv = this.deps.netns ? ['ip', 'netns', 'exec', this.deps.netns, ...nft] : nft;
    await this.deps.runner.run(argv, { input: renderStreamRules(ports), timeoutMs: 30_000 });
  }
}
