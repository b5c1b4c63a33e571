import { Resolver } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { readFile } from 'node:fs/promises';
import type { InstallerNetworkConfig, NetworkCheck, NetworkCheckName, NetworkTestStatus } from '../../../../shared/src/api/installer/installer.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { CommandRunner } from '../command-runner.ts';
import { parseResolvConf, readDefaultNetwork } from './default-network.ts';

export interface NetworkTesterDeps {
  runner: CommandRunner;
  clock: Clock;
  logger: Logger;
  /** A file of the package registry the box installs and updates from; any HTTP answer proves the way there. */
  registryUrl: string;
}

const checkTimeoutMs = 5000;
const names: NetworkCheckName[] = ['gateway', 'dns', 'registry'];

/**
 * Applies a configuration to the medium for the time of the installation (an added address and a
 * replaced default route, taken back before the next test) and checks the gateway by ping, name
 * resolution with the configuration's own name servers, and one HTTP request to the registry.
 */
export class NetworkTester {
  private state: NetworkTestStatus = { state: 'idle', config: null, checks: [], startedAt: null, finishedAt: null };
  private applied: { interface: string; address: string } | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly deps: NetworkTesterDeps) {}

  status(): NetworkTestStatus {
    return structuredClone(this.state);
  }

  busy(): boolean {
    return this.running !== null;
  }

  async start(config: InstallerNetworkConfig, known: string[]): Promise<NetworkTestStatus> {
    if (this.running) throw new ProblemError('installer.network.busy');
    if (!known.includes(config.interface)) throw new ProblemError('installer.network.unknown_interface', { interface: config.interface });
    const now = new Date(this.deps.clock.now()).toISOString();
    this.state = { state: 'running', config, checks: names.map((check) => ({ check, state: 'pending', detail: null })), startedAt: now, finishedAt: null };
    this.running = this.run(config).finally(() => (this.running = null));
    return this.status();
  }

  /** Waits for a running test (tests, shutdown). */
  async settled(): Promise<void> {
    await this.running;
  }

  private async run(config: InstallerNetworkConfig): Promise<void> {
    try {
      await this.apply(config);
      const gateway = config.gateway ?? (await readDefaultNetwork(this.deps.runner))?.gateway ?? null;
      await this.check('gateway', async () => {
        if (!gateway) return { skipped: 'no gateway' };
        await this.deps.runner.run(['ping', '-c', '1', '-W', String(checkTimeoutMs / 1000), gateway], { timeoutMs: checkTimeoutMs + 1000 });
        return `${gateway} answers`;
      });
      const servers = config.nameservers.length > 0 ? config.nameservers : parseResolvConf(await readFile('/etc/resolv.conf', 'utf8').catch(() => ''));
      const url = new URL(this.deps.registryUrl);
      let address: string | null = null;
      await this.check('dns', async () => {
        const resolver = new Resolver({ timeout: checkTimeoutMs, tries: 1 });
        if (servers.length > 0) resolver.setServers(servers);
        address = (await resolver.resolve4(url.hostname))[0] ?? null;
        if (!address) throw new Error(`${url.hostname} has no address`);
        return `${url.hostname} is ${address}`;
      });
      await this.check('registry', async () => {
        if (!address) return { skipped: 'name resolution failed' };
        return `${url.host} answers ${await httpStatus(url, address)}`;
      });
    } catch (err) {
      this.deps.logger.warn('network test failed', { component: 'installer', error: err instanceof Error ? err.message : String(err) });
      for (const c of this.state.checks) if (c.state === 'pending' || c.state === 'running') Object.assign(c, { state: 'failed', detail: String(err) });
    }
    this.state.state = this.state.checks.every((c) => c.state === 'passed' || c.state === 'skipped') ? 'passed' : 'failed';
    this.state.finishedAt = new Date(this.deps.clock.now()).toISOString();
  }

  private async apply(config: InstallerNetworkConfig): Promise<void> {
    const { runner } = this.deps;
    if (this.applied) {
      await runner.run(['ip', 'addr', 'del', this.applied.address, 'dev', this.applied.interface], { allowFailure: true });
      this.applied = null;
    }
    await runner.run(['ip', 'link', 'set', config.interface, 'up']);
    if (config.method !== 'static' || !config.address) return;
    await runner.run(['ip', 'addr', 'replace', config.address, 'dev', config.interface]);
    this.applied = { interface: config.interface, address: config.address };
    if (config.gateway) await runner.run(['ip', 'route', 'replace', 'default', 'via', config.gateway, 'dev', config.interface]);
  }

  private async check(name: NetworkCheckName, work: () => Promise<string | { skipped: string }>): Promise<void> {
    const entry = this.state.checks.find((c) => c.check === name) as NetworkCheck;
    entry.state = 'running';
    try {
      const result = await work();
      if (typeof result === 'string') Object.assign(entry, { state: 'passed', detail: result });
      else Object.assign(entry, { state: 'skipped', detail: result.skipped });
    } catch (err) {
      Object.assign(entry, { state: 'failed', detail: err instanceof ProblemError ? err.message : err instanceof Error ? err.message : String(err) });
    }
  }
}

/**
 * One GET to the registry at the address our own resolver found, with the URL's name as Host (and
 * TLS name). The deadline is for the whole check: a socket timeout is an idle one, and a registry
 * (or something in the way) that trickles its answer a byte at a time would never reach it.
 */
export function httpStatus(url: URL, address: string, deadlineMs = checkTimeoutMs): Promise<number> {
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve, reject) => {
    // Node asks for one address or for all of them, depending on its connection options.
    const lookup = ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) =>
      opts.all ? cb(null, [{ address, family: 4 }]) : cb(null, address, 4)) as unknown as http.RequestOptions['lookup'];
    const req = get(url, { lookup, timeout: deadlineMs }, (res) => {
      resolve(res.statusCode ?? 0);
      // The status is all the check needs: the body is not waited for.
      req.destroy();
    });
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${deadlineMs} ms`)));
    req.on('error', reject);
    req.on('close', () => clearTimeout(deadline));
  });
}
