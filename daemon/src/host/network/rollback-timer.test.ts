import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createLogger } from '../../core/logger.ts';
import { CommandRunner } from '../command-runner.ts';
import { rollbackScript } from './rollback-script.ts';
import { RollbackTimer } from './rollback-timer.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const gone = async (pid: number) => {
  for (let n = 0; n < 40 && alive(pid); n++) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
};

// Real detached processes, as a box without systemd as PID 1 runs the timer; nothing but sleeps is started.
describe('network rollback timer without systemd: disarm', () => {
  const logger = createLogger({ level: 'error', console: false, sinks: [] });
  const timer = new RollbackTimer({ runner: new CommandRunner(logger, true), logger, arm: true, systemd: false });
  let snap: string;
  const others: number[] = [];

  beforeEach(() => {
    snap = mkdtempSync(path.join(tmpdir(), 'cellar-rollback-timer-'));
    writeFileSync(path.join(snap, 'rollback.sh'), rollbackScript, { mode: 0o700 });
  });
  afterEach(() => {
    for (const pid of others.splice(0)) if (alive(pid)) process.kill(-pid, 'SIGKILL');
    rmSync(snap, { recursive: true, force: true });
  });

  it('stops the armed timer of its change', async () => {
    await timer.arm(snap, 600);
    const pid = Number(readFileSync(path.join(snap, 'timer.pid'), 'utf8'));
    others.push(pid);
    expect(alive(pid)).to.equal(true);
    await timer.disarm(snap);
    expect(await gone(pid)).to.equal(true);
  });

  it('leaves alone a process group that now has the recorded pid (a timer lost at a restart of the machine)', async () => {
    // Another session leader in the place of the timer: its pid is what timer.pid names after a reboot.
    const other = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
    other.unref();
    others.push(other.pid!);
    writeFileSync(path.join(snap, 'timer.pid'), String(other.pid));
    await timer.disarm(snap);
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(other.pid!)).to.equal(true);
  });
});
