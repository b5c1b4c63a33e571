import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import type { TestClient } from '../helpers/daemon.ts';

/**
 * Runs a command for the fixture. A wedged zfs-fuse can leave zpool waiting for ever: the
 * timeout turns that into a failing test instead of a suite that never ends.
 */
export const sh = (argv: string[]) =>
  execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000, killSignal: 'SIGKILL' });

function quiet(argv: string[]): void {
  try {
    sh(argv);
  } catch {
    // cleanup continues with the next step
  }
}

function poolExists(pool: string): boolean {
  try {
    sh(['zpool', 'list', '-H', '-o', 'name', pool]);
    return true;
  } catch {
    return false;
  }
}

/** Starts zfs-fuse when it does not run; fails loudly naming the package when it is missing. */
export async function ensureZfsFuse(): Promise<void> {
  try {
    sh(['which', 'zfs-fuse']);
  } catch {
    throw new Error('zfs-fuse is not installed: apt-get install -y --no-install-recommends zfs-fuse (as root)');
  }
  try {
    sh(['pgrep', '-x', 'zfs-fuse']);
    return;
  } catch {
    spawn('zfs-fuse', ['--no-daemon'], { detached: true, stdio: 'ignore' }).unref();
  }
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      sh(['zpool', 'list']);
      return;
    } catch {
      // not up yet
    }
  }
}

/** Sparse files on loop devices under a temporary folder, all named with the test prefix. */
export class LoopDisks {
  readonly work: string;
  readonly loops: string[] = [];
  readonly pools = new Set<string>();

  constructor(readonly prefix: string) {
    this.work = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  }

  add(count: number, size = '128M'): void {
    for (let i = 0; i < count; i++) {
      const file = path.join(this.work, `${this.prefix}-disk${this.loops.length}.img`);
      sh(['truncate', '-s', size, file]);
      this.loops.push(sh(['losetup', '-f', '--show', file]).trim());
    }
  }

  name(i: number): string {
    return path.basename(this.loops[i]!);
  }

  /** Destroys every pool the test named, detaches the loops and removes the files; also after a failure. */
  async cleanup(): Promise<void> {
    for (const pool of this.pools) {
      // zfs-fuse answers "pool is busy" for a moment after its file systems were used: try again.
      for (let i = 0; i < 20 && poolExists(pool); i++) {
        quiet(['zpool', 'destroy', '-f', pool]);
        if (poolExists(pool)) await new Promise((r) => setTimeout(r, 250));
      }
    }
    for (const loop of this.loops) quiet(['losetup', '-d', loop]);
    rmSync(this.work, { recursive: true, force: true });
  }
}

export async function waitJob(client: TestClient, job: Job): Promise<Job> {
  for (let i = 0; i < 600; i++) {
    const now = await client.api.jobs.get({ params: { id: job.id } });
    if (now.state !== 'queued' && now.state !== 'running') return now;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${job.id} did not finish`);
}

export function zfsGet(property: string, dataset: string): string {
  return sh(['zfs', 'get', '-H', '-p', '-o', 'value', property, dataset]).trim();
}
