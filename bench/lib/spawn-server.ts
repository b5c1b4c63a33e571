import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const tsxBin = path.join(root, 'node_modules/.bin/tsx');

/** A TypeScript script run under tsx, e.g. a baseline server. */
export function tsxCommand(script: string): string[] {
  return [tsxBin, script];
}

let bundled: Promise<void> | undefined;

/** The daemon as `npm start` and a box run it: the bundle, built once per bench run. */
export async function daemonCommand(): Promise<string[]> {
  // @ts-expect-error: a plain JavaScript build script without type declarations
  const { bundleDaemon, bundlePath, nodeFlags } = (await import('../../build/scripts/bundle-daemon.js')) as {
    bundleDaemon(): Promise<void>;
    bundlePath: string;
    nodeFlags: string[];
  };
  bundled ??= bundleDaemon();
  await bundled;
  return [process.execPath, ...nodeFlags, bundlePath];
}

export interface Spawned {
  child: ChildProcess;
  /** Milliseconds from spawn to the first 200 of `readyPath`. */
  readyMs: number;
  stop(): Promise<void>;
}

/** Starts a server process (`command`: the program and its arguments) and polls `url` until it answers 200. */
export async function spawnUntilReady(command: string[], url: string, env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<Spawned> {
  const started = performance.now();
  const [program = '', ...args] = command;
  const child = spawn(program, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
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
