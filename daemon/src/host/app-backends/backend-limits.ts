import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppBackendLimits, BackendLimitsEnforcer } from '../../../../shared/src/api/apps/apps.ts';
import { installPath } from '../../core/install-paths.ts';
import type { Logger } from '../../core/logger.ts';
import type { CommandRunner } from '../command-runner.ts';

/** What one app's backend may use, all its processes together. */
export interface BackendLimitValues {
  memoryBytes: number;
  tasks: number;
  /** 100 is one core. */
  cpuPercent: number;
}

/** The house limits of every backend (docs/apps.md): a backend is a small server, not a workload. */
export const defaultBackendLimits: BackendLimitValues = { memoryBytes: 1024 * 1024 * 1024, tasks: 256, cpuPercent: 100 };

/** The program that puts itself into cgroups and execs the backend (cgroups without systemd). */
export const cgroupExecProgram = installPath('daemon/bin/cgroup-exec');

/**
 * Keeps each app's backend, and everything it forks, in a group of its own with memory, task and
 * CPU limits, out of cellar.service's own group: a fork bomb or a leak hits the app alone.
 */
export interface BackendConfinement {
  readonly state: AppBackendLimits;
  /** Makes the app's group with its limits; answers the argv prefix that runs a program inside it. */
  enter(appId: string): Promise<string[]>;
  /** Ends every process left in the app's group (a backend's children outlive it otherwise) and removes the group. */
  leave(appId: string): Promise<void>;
  /** Removes the apps' own group when no app's group is left in it (the daemon stops). */
  close(): Promise<void>;
}

const cpuPeriodUs = 100_000;
const cpuQuotaUs = (limits: BackendLimitValues) => Math.max(1000, Math.round((limits.cpuPercent / 100) * cpuPeriodUs));

/** On a box: a transient scope per start under cellar-apps.slice, with systemd's own limits. */
class SystemdConfinement implements BackendConfinement {
  private readonly units = new Map<string, string>();
  /** Told apart from the scopes of an earlier run of the daemon, which may still be there. */
  private readonly run = Date.now().toString(36);
  private starts = 0;

  constructor(
    private readonly limits: BackendLimitValues,
    private readonly runner: CommandRunner,
    readonly state: AppBackendLimits,
  ) {}

  async enter(appId: string): Promise<string[]> {
    // The app's scopes sit beside cellar.service, not in it: a daemon that died left them running.
    // Its first start here ends them (a pattern systemctl matches itself, not a shell).
    if (!this.units.has(appId)) await this.runner.run(['systemctl', 'stop', `cellar-app-${appId}-*.scope`], { allowFailure: true, timeoutMs: 30_000 });
    // A new name per start: a scope that is still being torn down never blocks the next one.
    const unit = `cellar-app-${appId}-${this.run}-${++this.starts}.scope`;
    this.units.set(appId, unit);
    return [
      'systemd-run',
      '--scope',
      '--quiet',
      '--collect',
      `--unit=${unit}`,
      '--slice=cellar-apps.slice',
      `--property=MemoryMax=${this.limits.memoryBytes}`,
      `--property=TasksMax=${this.limits.tasks}`,
      `--property=CPUQuota=${this.limits.cpuPercent}%`,
    ];
  }

  async leave(appId: string): Promise<void> {
    const unit = this.units.get(appId);
    if (!unit) return;
    // Stopping the scope kills what the backend left behind; a scope already gone is no failure.
    await this.runner.run(['systemctl', 'stop', unit], { allowFailure: true, timeoutMs: 30_000 });
  }

  async close(): Promise<void> {}
}

/** A mounted cgroup hierarchy the daemon may write, and the group of the apps' groups in it. */
interface Hierarchy {
  /** Where the apps' groups go: `<mount>/<group>`. */
  base: string;
  /** Limit file name to its value. */
  files: (limits: BackendLimitValues) => Record<string, string>;
  /** Makes `base` able to hold limited groups (v2: controllers enabled on the way down). */
  prepare?: () => Promise<void>;
}

async function writeLimits(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(files)) await writeFile(path.join(dir, name), value);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function pidsIn(dir: string): Promise<number[]> {
  const text = await readFile(path.join(dir, 'cgroup.procs'), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map(Number);
}

/**
 * Without systemd as PID 1 (development, tests): a cgroup per app below `<group>` in each
 * hierarchy, written directly. cgroup v2 has one hierarchy; v1 one per controller.
 */
class CgroupConfinement implements BackendConfinement {
  constructor(
    private readonly hierarchies: Hierarchy[],
    private readonly limits: BackendLimitValues,
    private readonly logger: Logger,
    readonly state: AppBackendLimits,
  ) {}

  private dirs(appId: string): string[] {
    return this.hierarchies.map((h) => path.join(h.base, appId));
  }

  async enter(appId: string): Promise<string[]> {
    // A group left over (a daemon killed hard) still holds the old backend's processes: ended first.
    await this.leave(appId);
    if (this.state.enforcedBy === null) return [];
    try {
      for (const h of this.hierarchies) {
        await h.prepare?.();
        const dir = path.join(h.base, appId);
        await mkdir(dir, { recursive: true });
        await writeLimits(dir, h.files(this.limits));
      }
    } catch (err) {
      // Mounted but not ours to write (a container's read-only or delegated-away cgroups): a
      // development machine runs its backends without limits then, and says so, rather than not at all.
      this.logger.warn('app backend limits not enforced on this machine', { component: 'apps', appId, error: String(err) });
      Object.assign(this.state, { enforcedBy: null, reason: 'noControllers' });
      await this.leave(appId);
      return [];
    }
    return ['/bin/sh', cgroupExecProgram, ...this.dirs(appId).map((dir) => path.join(dir, 'cgroup.procs')), '--'];
  }

  async leave(appId: string): Promise<void> {
    for (const dir of this.dirs(appId)) {
      if (!existsSync(dir)) continue;
      if (existsSync(path.join(dir, 'cgroup.kill'))) await writeFile(path.join(dir, 'cgroup.kill'), '1').catch(() => undefined);
      // v1 has no cgroup.kill: killed one by one until none is left (the task limit bounds a fork race).
      for (let round = 0; round < 100; round++) {
        const pids = await pidsIn(dir);
        if (pids.length === 0) break;
        for (const pid of pids) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Gone already.
          }
        }
        await pause(50);
      }
      await rmdir(dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') this.logger.warn('app cgroup not removed', { component: 'apps', appId, dir, error: err.message });
      });
    }
  }

  async close(): Promise<void> {
    // Busy while another app's group is still in it: left for the next start.
    for (const h of this.hierarchies) await rmdir(h.base).catch(() => undefined);
  }
}

/** Nothing to limit with here: the state says why, the App Center shows it. */
class NoConfinement implements BackendConfinement {
  constructor(readonly state: AppBackendLimits) {}

  async enter(): Promise<string[]> {
    return [];
  }

  async leave(): Promise<void> {}

  async close(): Promise<void> {}
}

interface Mount {
  dir: string;
  type: string;
  options: string[];
}

function cgroupMounts(mountsFile: string): Mount[] {
  const text = existsSync(mountsFile) ? readFileSync(mountsFile, 'utf8') : '';
  return text
    .split('\n')
    .map((line) => line.split(' '))
    .filter((f) => f[2] === 'cgroup' || f[2] === 'cgroup2')
    .map((f) => ({ dir: (f[1] ?? '').replace(/\\040/g, ' '), type: f[2] as string, options: (f[3] ?? '').split(',') }));
}

const readText = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : '');

/** cgroup v2 with memory, pids and cpu available at its root: controllers enabled for the apps' group. */
function cgroup2Hierarchy(mounts: Mount[], group: string): Hierarchy | null {
  const mount = mounts.find(
    (m) => m.type === 'cgroup2' && ['memory', 'pids', 'cpu'].every((c) => readText(path.join(m.dir, 'cgroup.controllers')).split(' ').includes(c)),
  );
  if (!mount) return null;
  const base = path.join(mount.dir, group);
  const enable = (dir: string) => writeFile(path.join(dir, 'cgroup.subtree_control'), '+memory +pids +cpu');
  return {
    base,
    files: (l) => ({ 'memory.max': String(l.memoryBytes), 'pids.max': String(l.tasks), 'cpu.max': `${cpuQuotaUs(l)} ${cpuPeriodUs}` }),
    // A child group has a controller only when every group above it enabled it for its children.
    prepare: async () => {
      await enable(mount.dir);
      await mkdir(base, { recursive: true });
      await enable(base);
    },
  };
}

/** cgroup v1: the pids, memory and cpu hierarchies, each mounted on its own or together. */
function cgroup1Hierarchies(mounts: Mount[], group: string): Hierarchy[] | null {
  const v1 = (controller: string) => mounts.find((m) => m.type === 'cgroup' && m.options.includes(controller));
  const pids = v1('pids');
  const memory = v1('memory');
  const cpu = v1('cpu');
  if (!pids || !memory || !cpu) return null;
  const byDir = new Map<string, Record<string, (l: BackendLimitValues) => string>>();
  const add = (m: Mount, file: string, value: (l: BackendLimitValues) => string) => byDir.set(m.dir, { ...byDir.get(m.dir), [file]: value });
  add(pids, 'pids.max', (l) => String(l.tasks));
  add(memory, 'memory.limit_in_bytes', (l) => String(l.memoryBytes));
  add(cpu, 'cpu.cfs_period_us', () => String(cpuPeriodUs));
  add(cpu, 'cpu.cfs_quota_us', (l) => String(cpuQuotaUs(l)));
  return [...byDir].map(([dir, files]) => ({
    base: path.join(dir, group),
    files: (l) => Object.fromEntries(Object.entries(files).map(([name, value]) => [name, value(l)])),
  }));
}

export interface ConfinementOptions {
  limits: BackendLimitValues;
  /** Whether the daemon runs as root: only root can make groups and start scopes. */
  root: boolean;
  /** The group below which each app's group is made without systemd (tests use their own). */
  group: string;
  runner: CommandRunner;
  logger: Logger;
  /** Seams for tests: where systemd's run folder and the mount table are. */
  systemdDir?: string;
  mountsFile?: string;
}

/**
 * Chooses how backends are limited here: systemd when it is PID 1 (a box), else cgroup v2, else
 * cgroup v1 with the pids, memory and cpu controllers; without root or controllers, not at all.
 */
export function backendConfinement(o: ConfinementOptions): BackendConfinement {
  const state = (enforcedBy: BackendLimitsEnforcer | null, reason: AppBackendLimits['reason']): AppBackendLimits => ({ enforcedBy, reason, ...o.limits });
  if (!o.root) return new NoConfinement(state(null, 'notRoot'));
  if (existsSync(o.systemdDir ?? '/run/systemd/system')) return new SystemdConfinement(o.limits, o.runner, state('systemd', null));
  const mounts = cgroupMounts(o.mountsFile ?? '/proc/self/mounts');
  const v2 = cgroup2Hierarchy(mounts, o.group);
  if (v2) return new CgroupConfinement([v2], o.limits, o.logger, state('cgroup2', null));
  const v1 = cgroup1Hierarchies(mounts, o.group);
  if (v1) return new CgroupConfinement(v1, o.limits, o.logger, state('cgroup1', null));
  return new NoConfinement(state(null, 'noControllers'));
}
