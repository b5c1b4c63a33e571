import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../bench/lib/free-port.ts';
// @ts-expect-error: a plain JavaScript build script without type declarations
import * as script from '../../build/scripts/bundle-daemon.js';

const { bundleDaemon, bundlePath, nodeFlags } = script as { bundleDaemon(): Promise<void>; bundlePath: string; nodeFlags: string[] };

export const processAdminPassword = 'process test password 1';

/** A daemon in a process of its own (the bundle `npm start` runs), for what an in-process daemon cannot show: its environment, a kill -9. */
export interface DaemonProcess {
  base: string;
  dataDir: string;
  stderr(): string;
  kill(signal?: NodeJS.Signals): void;
  /** The exit status once the process ended (null when a signal ended it). */
  exited: Promise<number | null>;
  close(): Promise<void>;
}

/** `argv`: what node runs instead of the bundle (a system test's entry with its seams, run as main.ts runs). */
export async function startDaemonProcess(options: { env?: Record<string, string>; dataDir?: string; argv?: string[] } = {}): Promise<DaemonProcess> {
  if (!options.argv) await bundleDaemon();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'cellar-process-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let stderr = '';
  const child: ChildProcess = spawn(process.execPath, options.argv ?? [...nodeFlags, bundlePath], {
    env: { ...process.env, BOX_PORT: String(port), BOX_DATA_DIR: dataDir, BOX_ADMIN_PASSWORD: processAdminPassword, BOX_LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (const deadline = Date.now() + 30_000; ;) {
    if (child.exitCode !== null) throw new Error(`the daemon exited with ${child.exitCode}: ${stderr}`);
    if ((await fetch(`${base}/api/health`).catch(() => null))?.status === 200) break;
    if (Date.now() > deadline) throw new Error(`the daemon did not answer: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    base,
    dataDir,
    stderr: () => stderr,
    kill: (signal = 'SIGKILL') => child.kill(signal),
    exited,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface AdminCaller {
  (method: string, urlPath: string, body?: unknown): Promise<Response>;
  /** The session cookie and CSRF token, for a request made some other way (a slow upload over node:http). */
  headers(): Record<string, string>;
}

/** Signs the administrator in over plain fetch: answers a caller that sends the cookie and CSRF token. */
export async function adminCaller(base: string): Promise<AdminCaller> {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: processAdminPassword }),
  });
  if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
  const { user } = (await login.json()) as { user: { csrfToken: string } };
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const headers = () => ({ Cookie: cookie, 'X-CSRF-Token': user.csrfToken });
  const call = (method: string, urlPath: string, body?: unknown) =>
    fetch(base + urlPath, {
      method,
      headers: { ...headers(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return Object.assign(call, { headers });
}
