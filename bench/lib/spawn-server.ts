import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
export const tsxBin = path.join(root, 'node_modules/.bin/tsx');

export interface Spawned {
  child: ChildProcess;
  /** Milliseconds from spawn to the first 200 of `readyPath`. */
  readyMs: number;
  stop(): Promise<void>;
}

/** Starts a server process and polls `url` until it answers 200. */
export async function spawnUntilReady(args: string[], url: string, env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<Spawned> {
  const started = performance.now();
  const child = spawn(tsxBin, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const readyMs = performance.now() - started;
  return {
    child,
    readyMs,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Resident memory of a process in MB, from /proc. */
export function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}
