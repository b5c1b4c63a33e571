import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '../../core/logger.ts';
import { launchBackend, type BackendLaunch } from '../../host/app-backends/backend-launch.ts';
import { listenForBackend, prepareSocketFolder } from '../../host/app-backends/backend-socket.ts';
import type { BackendConfinement } from '../../host/app-backends/backend-limits.ts';

/** Backoff after an exit: 1 s, doubling, at most 30 s; a run of a minute counts as healthy again. */
const firstDelayMs = 1000;
const maxDelayMs = 30_000;
const healthyRunMs = 60_000;
const stopGraceMs = 5000;

interface Supervised {
  launch: BackendLaunch;
  socket: string;
  child: ChildProcess | null;
  startedAt: number;
  failures: number;
  timer: NodeJS.Timeout | null;
  stopping: boolean;
  /** The box could not start it (not an exit of the backend): it stays stopped until started again. */
  failed: boolean;
  /** The app's group emptied and removed after its last run; the next run waits for it. */
  left: Promise<void>;
}

export interface BackendSupervisorDeps {
  logger: Logger;
  /** Writes a line of a backend's output to the log store as `app/<id>`. */
  output(appId: string, level: 'info' | 'warn', line: string): void;
  asRoot: boolean;
  /** The daemon's own folder of the backends' listening sockets (backend-socket.ts), no app's. */
  socketFolder: string;
  /** The group with memory, task and CPU limits each backend runs in (backend-limits.ts). */
  confinement: BackendConfinement;
}

/**
 * Keeps apps' backends running: started under the app's account with the listening socket the
 * daemon made for them, restarted with backoff when they exit, stopped on disable and uninstall,
 * their output in the log store. Nothing a backend does to its own files reaches the daemon: a
 * start that fails marks that app's backend failed.
 */
export class BackendSupervisor {
  private readonly backends = new Map<string, Supervised>();

  constructor(private readonly deps: BackendSupervisorDeps) {}

  /** The socket the daemon connects to for a running (or restarting) backend; null when none runs or it failed. */
  socketOf(appId: string): string | null {
    const entry = this.backends.get(appId);
    return entry && !entry.failed ? entry.socket : null;
  }

  pid(appId: string): number | null {
    return this.backends.get(appId)?.child?.pid ?? null;
  }

  /** Whether the box gave up starting the app's backend (see `failed` in the log as `app/<id>`). */
  failed(appId: string): boolean {
    return this.backends.get(appId)?.failed ?? false;
  }

  /** (Re)starts the app's backend: a running one is stopped first. */
  async start(launch: BackendLaunch): Promise<void> {
    await this.stop(launch.appId);
    // Named by the app's uid: an app id may be 128 characters, a socket path at most 107 bytes.
    const socket = path.join(this.deps.socketFolder, `${launch.uid}.sock`);
    const entry: Supervised = { launch, socket, child: null, startedAt: 0, failures: 0, timer: null, stopping: false, failed: false, left: Promise.resolve() };
    this.backends.set(launch.appId, entry);
    this.spawn(entry);
  }

  private spawn(entry: Supervised): void {
    entry.timer = null;
    this.run(entry).catch((err: unknown) => this.fail(entry, err));
  }

  private async run(entry: Supervised): Promise<void> {
    const { appId } = entry.launch;
    await entry.left;
    if (entry.stopping) return;
    await prepareSocketFolder(this.deps.socketFolder);
    const confine = await this.deps.confinement.enter(appId);
    const listening = await listenForBackend(entry.socket);
    if (entry.stopping) return listening.close();
    const child = listening.publish((fd) => launchBackend(entry.launch, fd, this.deps.asRoot, confine));
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
      this.deps.logger.warn('app backend exited', { logCode: 'apps.backendExited', component: 'apps', appId, code, signal });
      this.exited(entry);
    });
    this.deps.logger.info('app backend started', { logCode: 'apps.backendStarted', component: 'apps', appId, pid: child.pid, uid: entry.launch.uid });
  }

  /** The box could not start the backend: said in the app's log and the daemon's, and not tried again until the app is started again. */
  private fail(entry: Supervised, err: unknown): void {
    if (entry.stopping) return;
    entry.failed = true;
    const { appId } = entry.launch;
    const reason = err instanceof Error ? err.message : String(err);
    this.deps.logger.error('app backend failed', { logCode: 'apps.backendFailed', component: 'apps', appId, error: reason });
    this.deps.output(appId, 'warn', `backend failed: the box could not start it (${reason}); it stays stopped until the app is switched off and on again`);
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
    if (child && child.exitCode === null && child.signalCode === null) {
      const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
      await ended;
      clearTimeout(kill);
      this.deps.logger.info('app backend stopped', { logCode: 'apps.backendStopped', component: 'apps', appId });
    }
    await entry.left;
    // Nobody listens on it any more; what cannot be removed is left for the next start to refuse.
    await rm(entry.socket, { force: true }).catch(() => undefined);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.backends.keys()].map((appId) => this.stop(appId)));
    await this.deps.confinement.close();
  }
}
