import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../core/logger.ts';
import type { CommandRunner } from '../command-runner.ts';

export interface RollbackTimerDeps {
  runner: CommandRunner;
  logger: Logger;
  /** Whether the timer is armed for real (a box, or a test's namespace); otherwise it is logged. */
  arm: boolean;
  /** Whether systemd is PID 1 here: then the timer is a transient systemd timer that outlives the daemon's cgroup. */
  systemd: boolean;
}

function unitName(snap: string): string {
  return `cellar-network-rollback-${path.basename(snap)}`;
}

/** Whether the process is the shell running this rollback script (its command line names it). */
function runsScript(pid: number, script: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(script);
  } catch {
    return false;
  }
}

/**
 * The timer outside the daemon's process that runs a change's rollback script at its deadline:
 * it must fire even when the daemon is killed or hangs. With systemd as PID 1 it is a transient
 * timer (systemd-run); elsewhere (containers, tests) a detached shell in a session of its own.
 */
export class RollbackTimer {
  constructor(private readonly deps: RollbackTimerDeps) {}

  async arm(snap: string, seconds: number): Promise<void> {
    const script = path.join(snap, 'rollback.sh');
    const delay = Math.max(1, Math.ceil(seconds));
    if (!this.deps.arm) {
      this.deps.logger.debug('would arm the network rollback', { component: 'host', script, delay });
      return;
    }
    if (this.deps.systemd) {
      await this.deps.runner.run(
        ['systemd-run', `--unit=${unitName(snap)}`, `--on-active=${delay}s`, '--timer-property=AccuracySec=1s', '/bin/sh', script, snap, '0'],
        {
          timeoutMs: 30_000,
        },
      );
      return;
    }
    // detached: setsid(), so a kill -9 of the daemon (or of its process group) leaves the timer running.
    const child = spawn('/bin/sh', [script, snap, String(delay)], { detached: true, stdio: 'ignore' });
    child.unref();
    if (child.pid !== undefined) writeFileSync(path.join(snap, 'timer.pid'), String(child.pid));
  }

  /**
   * Stops a timer whose change the daemon settles, and a rollback it runs right now (the claim
   * keeps a late one from acting; one stopped midway the daemon's own run finishes).
   */
  async disarm(snap: string): Promise<void> {
    if (!this.deps.arm) return;
    if (this.deps.systemd) {
      await this.deps.runner.run(['systemctl', 'stop', `${unitName(snap)}.timer`, `${unitName(snap)}.service`], { allowFailure: true, timeoutMs: 30_000 });
      return;
    }
    const pidFile = path.join(snap, 'timer.pid');
    if (!existsSync(pidFile)) return;
    const pid = Number(readFileSync(pidFile, 'utf8'));
    // After a restart of the machine (the start that finishes a change) the pid may be another process's now.
    if (!runsScript(pid, path.join(snap, 'rollback.sh'))) return;
    try {
      // The session's group: the shell and its sleep.
      process.kill(-pid, 'SIGTERM');
    } catch {
      // Already gone: it ran, or the machine restarted.
    }
  }
}
