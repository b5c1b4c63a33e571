import type { ChildProcess } from 'node:child_process';
import { chown, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '../../core/logger.ts';
import { launchBackend, type BackendLaunch } from '../../host/app-backends/backend-launch.ts';
import type { BackendConfinement } from '../../host/app-backends/backend-limits.ts';

/** Backoff after an exit: 1 s, doubling, at most 30 s; a run of a minute counts as healthy again. */
const firstDelayMs = 1000;
const maxDelayMs = 30_000;
const healthyRunMs = 60_000;
const stopGraceMs = 5000;

interface Supervised {
  launch: BackendLaunch;
  child: ChildProcess | null;
  startedAt: number;
  failures: number;
  timer: NodeJS.Timeout | null;
  stopping: boolean;
  /** The app's group emptied and removed after its last run; the next run waits for it. */
  left: Promise<void>;
}

export interface BackendSupervisorDeps {
  logger: Logger;
  /** Writes a line of a backend's output to the log store as `app/<id>`. */
  output(appId: string, level: 'info' | 'warn', line: string): void;
  asRoot: boolean;
  /** The group with memory, task and CPU limits each backend runs in (backend-limits.ts). */
  confinement: BackendConfinement;
}

/** The folder the backend's socket lives in, inside the app's volume, its account's alone. */
export const runFolder = 'run';

/**
 * Keeps apps' backends running: started under the app's account, restarted with backoff when
 * they exit, stopped on disable and uninstall, their output in the log store.
 */
export class BackendSupervisor {
  private readonly backends = new Map<string, Supervised>();

  constructor(private readonly deps: BackendSupervisorDeps) {}

  /** The socket a running (or starting) backend listens on; null when the app has none running. */
  socketOf(appId: string): string | null {
    return this.backends.get(appId)?.launch.socket ?? null;
  }

  pid(appId: string): number | null {
    return this.backends.get(appId)?.child?.pid ?? null;
  }

  /** (Re)starts the app's backend: a running one is stopped first. */
  async start(launch: BackendLaunch): Promise<void> {
    await this.stop(launch.appId);
    const run = path.dirname(launch.socket);
    await mkdir(run, { recursive: true, mode: 0o700 });
    if (this.deps.asRoot) await chown(run, launch.uid, launch.uid);
    const entry: Supervised = { launch, child: null, startedAt: 0, failures: 0, timer: null, stopping: false, left: Promise.resolve() };
    this.backends.set(launch.appId, entry);
    this.spawn(entry);
  }

  private spawn(entry: Supervised): void {
    const { appId } = entry.launch;
    entry.timer = null;
    void rm(entry.launch.socket, { force: true }).then(async () => {
      await entry.left;
      if (entry.stopping) return;
      let child: ChildProcess;
      try {
        child = launchBackend(entry.launch, this.deps.asRoot, await this.deps.confinement.enter(appId));
      } catch (err) {
        this.deps.logger.warn('app backend not started', { component: 'apps', appId, error: String(err) });
        return this.exited(entry);
      }
      entry.child = child;
      entry.startedAt = Date.now();
      for (const [stream, level] of [
        [child.stdout, 'info'],
        [child.stderr, 'warn'],
      ] as const)
        if (stream) createInterface({ input: stream }).on('line', (line) => this.deps.output(appId, level, line.slice(0, 4000)));
      child.once('error', (err) => this.deps.logger.warn('app backend failed to run', { component: 'apps', appId, error: err.message }));
      child.once('exit', (code, signal) => {
        entry.child = null;
        // What the backend forked dies with it: the next run starts alone in its group.
        entry.left = this.deps.confinement.leave(appId).catch((err: unknown) => {
          this.deps.logger.warn('app backend group not emptied', { component: 'apps', appId, error: String(err) });
        });
        if (entry.stopping) return;
        this.deps.logger.warn('app backend exited', { component: 'apps', appId, code, signal });
        this.exited(entry);
      });
      this.deps.logger.info('app backend started', { component: 'apps', appId, pid: child.pid, uid: entry.launch.uid });
    });
  }

  private exited(entry: Supervised): void {
    if (Date.now() - entry.startedAt > healthyRunMs) entry.failures = 0;
    const delay = Math.min(maxDelayMs, firstDelayMs * 2 ** entry.failures);
    entry.failures++;
    entry.timer = setTimeout(() => this.spawn(entry), delay);
    entry.timer.unref();
  }

  /** Stops the backend (TERM, then KILL after 5 s) and forgets it. */
  async stop(appId: string): Promise<void> {
    const entry = this.backends.get(appId);
    if (!entry) return;
    this.backends.delete(appId);
    entry.stopping = true;
    if (entry.timer) clearTimeout(entry.timer);
    const child = entry.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return entry.left;
    const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
    await ended;
    clearTimeout(kill);
    await entry.left;
    this.deps.logger.info('app backend stopped', { component: 'apps', appId });
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.backends.keys()].map((appId) => this.stop(appId)));
    await this.deps.confinement.close();
  }
}
