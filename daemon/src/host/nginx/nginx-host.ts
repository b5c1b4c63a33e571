import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { CommandError, type CommandRunner } from '../command-runner.ts';

export interface NginxFile {
  content: string;
  mode: number;
}

export interface NginxHostDeps {
  /** The proxy's folder: `conf` (the running configuration), `staging` (the next one), `run` (pid, logs, temporary files). */
  dir: string;
  runner: CommandRunner;
  logger: Logger;
  /** Run nginx as a master process of our own; false: validate only (development mode without proxy ports). */
  run: boolean;
  binary?: string;
}

export type NginxState = 'running' | 'stopped' | 'missing';

/** nginx's own words, without its program prefix and our folder's paths. */
function nginxMessage(err: CommandError, staging: string): string {
  const lines = err.result.stderr.split('\n').filter((l) => /\[(emerg|alert|crit|error)\]/.test(l));
  const text = (lines.join('\n') || err.result.stderr.trim() || err.message).replace(/^nginx: /gm, '');
  return text.split(staging + path.sep).join('');
}

/**
 * nginx with a private prefix and configuration under the daemon's data directory, never the
 * system's nginx service. A new configuration is validated with `nginx -t` in a staging folder
 * and replaces the running one only when nginx accepts it; then nginx reloads.
 */
export class NginxHost {
  private master: ChildProcess | null = null;
  private missing = false;
  private readonly conf: string;
  private readonly staging: string;
  readonly runtimeDir: string;

  constructor(private readonly deps: NginxHostDeps) {
    this.conf = path.join(deps.dir, 'conf');
    this.staging = path.join(deps.dir, 'staging');
    this.runtimeDir = path.join(deps.dir, 'run');
  }

  private get binary(): string {
    return this.deps.binary ?? 'nginx';
  }

  state(): NginxState {
    if (this.missing) return 'missing';
    return this.master && this.master.exitCode === null ? 'running' : 'stopped';
  }

  /** Whether nginx is installed; a missing one is a state, not a failure. */
  async probe(): Promise<NginxState> {
    try {
      await this.deps.runner.read([this.binary, '-v'], { timeoutMs: 10_000, allowFailure: true });
      this.missing = false;
    } catch (err) {
      if (!(err instanceof ProblemError) || err.code !== 'host.tool.missing') throw err;
      this.missing = true;
    }
    return this.state();
  }

  private args(confFile: string): string[] {
    return ['-p', this.runtimeDir + path.sep, '-c', confFile];
  }

  /** Validates the configuration with its files and makes it the running one; a refused one leaves everything as it was. */
  async apply(config: string, files: Record<string, NginxFile>): Promise<void> {
    mkdirSync(this.runtimeDir, { recursive: true, mode: 0o755 });
    rmSync(this.staging, { recursive: true, force: true });
    mkdirSync(this.staging, { mode: 0o700 });
    for (const [name, file] of Object.entries(files)) writeFileSync(path.join(this.staging, name), file.content, { mode: file.mode });
    writeFileSync(path.join(this.staging, 'nginx.conf'), config, { mode: 0o600 });
    try {
      // Read-only probe: it runs in development mode too, so a refused configuration is refused there as well.
      await this.deps.runner.read([this.binary, '-t', '-q', ...this.args(path.join(this.staging, 'nginx.conf'))], { timeoutMs: 30_000 });
      this.missing = false;
    } catch (err) {
      if (err instanceof ProblemError && err.code === 'host.tool.missing') this.missing = true;
      const refused = err instanceof CommandError ? nginxMessage(err, this.staging) : null;
      rmSync(this.staging, { recursive: true, force: true });
      if (refused !== null) throw new ProblemError('proxy.config.refused', { message: refused }, { detail: refused });
      throw err;
    }
    const previous = path.join(this.deps.dir, 'previous');
    rmSync(previous, { recursive: true, force: true });
    if (existsSync(this.conf)) renameSync(this.conf, previous);
    renameSync(this.staging, this.conf);
    try {
      if (this.deps.run) await this.reloadOrStart();
      else this.deps.logger.debug('proxy configuration validated; development mode runs no nginx', { component: 'proxy' });
    } catch (err) {
      // nginx would not start with it (a port taken): the previous configuration comes back.
      rmSync(this.conf, { recursive: true, force: true });
      if (existsSync(previous)) renameSync(previous, this.conf);
      throw err;
    }
    rmSync(previous, { recursive: true, force: true });
  }

  private async reloadOrStart(): Promise<void> {
    const confFile = path.join(this.conf, 'nginx.conf');
    if (this.state() === 'running') {
      // Workers of a master that just started may not be forked yet: without them the old generation is unknown.
      const before = await this.currentWorkers();
      await this.deps.runner.run([this.binary, ...this.args(confFile), '-s', 'reload'], { timeoutMs: 30_000 });
      await this.reloaded(before);
      return;
    }
    const child = spawn(this.binary, this.args(confFile), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const pidFile = path.join(this.runtimeDir, 'nginx.pid');
    // nginx writes its pid once it listens; an early exit (a port taken) is the refusal.
    for (let i = 0; i < 100; i++) {
      const code = await Promise.race([exited, delay(50).then(() => undefined)]);
      if (code !== undefined) {
        const message = stderr.replace(/^nginx: /gm, '').trim() || `nginx exited with ${code}`;
        throw new ProblemError('proxy.config.refused', { message }, { detail: message });
      }
      if (existsSync(pidFile)) break;
    }
    this.master = child;
    child.once('exit', (code) => this.deps.logger.warn('nginx exited', { component: 'proxy', code }));
    // The pid file comes before the worker: nginx serves once the worker runs.
    await this.currentWorkers();
    this.deps.logger.info('nginx started', { component: 'proxy', pid: child.pid });
  }

  /** The master's worker processes (Linux's children list of the master). */
  private workers(): string[] {
    const pid = this.master?.pid;
    if (!pid) return [];
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
    } catch {
      return [];
    }
  }

  /** The running generation's workers, waiting (at most 5 s) for the master to fork them. */
  private async currentWorkers(): Promise<string[]> {
    for (let i = 0; i < 100; i++) {
      const workers = this.workers();
      if (workers.length > 0) return workers;
      await delay(50);
    }
    this.deps.logger.warn('nginx has no worker process', { component: 'proxy' });
    return [];
  }

  /**
   * `nginx -s reload` only signals: until the old workers are gone, a request may still meet the
   * old configuration. A change applies to the next request, so the answer waits (at most 5 s).
   */
  private async reloaded(before: string[]): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const now = this.workers();
      if (now.length > 0 && !now.some((pid) => before.includes(pid))) return;
      await delay(50);
    }
    this.deps.logger.warn('nginx workers of the previous configuration still run', { component: 'proxy' });
  }

  /** Stops our nginx (graceful: open requests finish). */
  async stop(): Promise<void> {
    const master = this.master;
    this.master = null;
    if (!master || master.exitCode !== null) return;
    master.removeAllListeners('exit');
    const exited = new Promise<void>((resolve) => master.once('exit', () => resolve()));
    master.kill('SIGQUIT');
    const timer = setTimeout(() => master.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
