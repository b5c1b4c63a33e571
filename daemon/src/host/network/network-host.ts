import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { NetworkConfig, NetworkLink } from '../../../../shared/src/api/network/network.ts';
import type { Logger } from '../../core/logger.ts';
import type { CommandRunner } from '../command-runner.ts';
import { applyBatch, restoreBatch, type IpBatch } from './ip-plan.ts';
import { parseIpState, type IpAddr, type IpLink, type IpRoute } from './ip-state.ts';
import { networkDir, networkdFiles, ownPrefix, readNameServers, resolvConf } from './networkd-files.ts';
import { rollbackScript } from './rollback-script.ts';
import { RollbackTimer } from './rollback-timer.ts';

export interface NetworkHostDeps {
  /** "/" on a box; a folder in tests, where the networkd, resolver and host name files are written instead. */
  root: string;
  /** Whether files are written and `ip` runs (a box, or a test's namespace); otherwise both are logged. */
  apply: boolean;
  /** A test's network namespace: every `ip` runs there (`ip -n`). Null on a box. */
  namespace: string | null;
  /** Whether the live host name is set too (a box only: a test's namespace shares the machine's host name). */
  setHostName: boolean;
  /** Whether systemd is PID 1 (networkctl and transient timers work). */
  systemd: boolean;
  runner: CommandRunner;
  logger: Logger;
}

export interface LiveState {
  links: NetworkLink[];
  hostName: string;
  nameServers: string[];
}

/** What one change does, computed before anything is touched. */
export interface ChangePlan {
  config: NetworkConfig;
  before: LiveState;
  changed: ReadonlySet<string>;
}

function readText(file: string): string | null {
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

function sysSpeed(name: string): number | null {
  let speed = NaN;
  try {
    speed = Number(readFileSync(path.join('/sys/class/net', name, 'speed'), 'utf8').trim());
  } catch {
    // Virtual cards have no speed file; a card without a link fails the read (EINVAL).
  }
  return Number.isInteger(speed) && speed > 0 ? speed : null;
}

/** The box's network: read from the kernel, changed with `ip`, kept in systemd-networkd files, rolled back by a script of its own. */
export class NetworkHost {
  private readonly timer: RollbackTimer;

  constructor(private readonly deps: NetworkHostDeps) {
    this.timer = new RollbackTimer({ runner: deps.runner, logger: deps.logger, arm: deps.apply, systemd: deps.systemd });
  }

  private ip(...args: string[]): string[] {
    return this.deps.namespace ? ['ip', '-n', this.deps.namespace, ...args] : ['ip', ...args];
  }

  private async json<T>(...args: string[]): Promise<T[]> {
    const { stdout } = await this.deps.runner.read(this.ip('-j', ...args), { timeoutMs: 10_000 });
    return stdout.trim() === '' ? [] : (JSON.parse(stdout) as T[]);
  }

  async read(): Promise<LiveState> {
    const [links, addrs, routes4, routes6] = await Promise.all([
      this.json<IpLink>('-d', 'link', 'show'),
      this.json<IpAddr>('addr', 'show'),
      this.json<IpRoute>('route', 'show', 'default'),
      this.json<IpRoute>('-6', 'route', 'show', 'default'),
    ]);
    // /sys/class/net shows the daemon's own namespace: a test's namespace has no speeds to read there.
    const speed = this.deps.namespace ? () => null : sysSpeed;
    const { root } = this.deps;
    const hostFile = readText(path.join(root, 'etc/hostname'))?.trim();
    return {
      links: parseIpState({ links, addrs, routes: [...routes4, ...routes6] }, speed),
      hostName: hostFile || (root === '/' ? hostname() : ''),
      nameServers: readNameServers(readText(path.join(root, 'etc/resolv.conf')) ?? ''),
    };
  }

  /** Files of the change by absolute path: null removes one (a stale networkd file of Cellar's). */
  private files(config: NetworkConfig): Map<string, string | null> {
    const { root } = this.deps;
    const files = new Map<string, string | null>();
    const dir = path.join(root, networkDir);
    if (existsSync(dir)) for (const name of readdirSync(dir)) if (name.startsWith(ownPrefix)) files.set(path.join(dir, name), null);
    for (const [rel, text] of networkdFiles(config)) files.set(path.join(root, rel), text);
    if (config.nameServers.length > 0) files.set(path.join(root, 'etc/resolv.conf'), resolvConf(config.nameServers));
    files.set(path.join(root, 'etc/hostname'), `${config.hostName}\n`);
    return files;
  }

  /**
   * Saves what the change replaces into `snap` (old files, the `ip` lines that restore the live
   * state, the old host name, the rollback script), arms the outside timer, then applies.
   */
  async apply(snap: string, plan: ChangePlan, deadlineSeconds: number): Promise<void> {
    const { logger } = this.deps;
    const files = this.files(plan.config);
    const restore = restoreBatch(plan.config, plan.before.links, plan.changed);
    const batch = applyBatch(plan.config, plan.before.links, plan.changed);
    mkdirSync(path.join(snap, 'files'), { recursive: true, mode: 0o700 });
    const list: string[] = [];
    [...files.keys()].forEach((file, index) => {
      if (existsSync(file)) copyFileSync(file, path.join(snap, 'files', String(index)));
      list.push(`${index} ${file}`);
    });
    writeFileSync(path.join(snap, 'files.list'), list.join('\n') + '\n');
    writeFileSync(path.join(snap, 'restore.batch'), restore.join('\n') + '\n');
    writeFileSync(path.join(snap, 'ip-args'), this.deps.namespace ? `-n ${this.deps.namespace}` : '');
    if (this.deps.setHostName) writeFileSync(path.join(snap, 'hostname'), plan.before.hostName);
    if (this.deps.systemd) writeFileSync(path.join(snap, 'networkctl'), [...plan.changed].join(' '));
    writeFileSync(path.join(snap, 'rollback.sh'), rollbackScript, { mode: 0o700 });
    await this.timer.arm(snap, deadlineSeconds);

    if (!this.deps.apply) {
      logger.debug('would apply the network change', { component: 'host', files: Object.fromEntries(files), ipBatch: batch });
      return;
    }
    for (const [file, text] of files) {
      if (text === null) rmSync(file, { force: true });
      else {
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(`${file}.cellar-new`, text);
        renameSync(`${file}.cellar-new`, file);
      }
    }
    await this.batch(batch);
    if (this.deps.setHostName) await this.deps.runner.run(['hostname', plan.config.hostName], { timeoutMs: 10_000 });
    if (this.deps.systemd) {
      await this.deps.runner.run(['networkctl', 'reload'], { allowFailure: true, timeoutMs: 30_000 });
      if (plan.changed.size > 0) await this.deps.runner.run(['networkctl', 'reconfigure', ...plan.changed], { allowFailure: true, timeoutMs: 30_000 });
    }
  }

  private async batch(lines: IpBatch): Promise<void> {
    if (lines.length === 0) return;
    // -force: a line that fails (a route already gone) must not keep the rest from applying.
    await this.deps.runner.run(this.ip('-force', '-batch', '-'), { input: lines.join('\n') + '\n', allowFailure: true, timeoutMs: 30_000 });
  }

  /**
   * Takes the change for the daemon to keep; false when the outside timer took it first. The claim
   * is a hard link of an empty `kept` file to `claimed` (atomic like the script's mkdir, which it
   * makes fail), so the snapshot itself records that the daemon kept the change: a confirmation
   * whose own record then fails (a full disk, a crash) is still found as kept, never as rolled
   * back. Throws, having claimed nothing, when the marker cannot be written.
   */
  claimToKeep(snap: string): boolean {
    const mark = path.join(snap, 'kept');
    writeFileSync(mark, '', { mode: 0o600 });
    try {
      linkSync(mark, path.join(snap, 'claimed'));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  }

  /** Whether the daemon kept the change on the host (its claim is the `kept` file, the script's a folder). */
  kept(snap: string): boolean {
    return statSync(path.join(snap, 'claimed'), { throwIfNoEntry: false })?.isFile() ?? false;
  }

  /** Whether the outside timer already rolled the change back. */
  rolledBack(snap: string): boolean {
    return existsSync(path.join(snap, 'rolled-back'));
  }

  /**
   * The step a rollback had reached when it stopped unfinished (its claim is a folder, `rolled-back`
   * is missing: a crash or a power cut in the middle), or null. The outside timer at its deadline
   * looks the same while it runs; rollback() stops it and finishes alike.
   */
  unfinishedRollback(snap: string): string | null {
    const claim = statSync(path.join(snap, 'claimed'), { throwIfNoEntry: false });
    if (!claim?.isDirectory() || this.rolledBack(snap)) return null;
    return readText(path.join(snap, 'claimed', 'step'))?.trim() || 'claim';
  }

  /**
   * Rolls back at once with the change's own script (it claims the change itself), finishing one
   * that another run started and left unfinished; throws unless the change ends rolled back or kept.
   */
  async rollback(snap: string): Promise<void> {
    await this.timer.disarm(snap);
    await this.deps.runner.run(['/bin/sh', path.join(snap, 'rollback.sh'), snap, '0', 'finish'], { timeoutMs: 60_000 });
    if (this.deps.apply && !this.rolledBack(snap) && !this.kept(snap)) throw new Error(`the rollback of the network change in ${snap} did not finish`);
  }

  async keep(snap: string): Promise<void> {
    await this.timer.disarm(snap);
  }
}
