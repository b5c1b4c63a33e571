import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LoadOptions, LoadResult } from './load-client.ts';
import { tsxCommand } from './spawn-server.ts';

export type { LoadResult } from './load-client.ts';

const run = promisify(execFile);

/**
 * A small closed-loop load generator on loopback: `concurrency` keep-alive connections each
 * sending the next request when the last answer ends, for a fixed time. It runs as a process of
 * its own: a client is another device, so its work (TLS above all) must not share the event loop
 * of a daemon the bench runs in its own process.
 */
export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const [program = '', ...args] = tsxCommand(path.join(import.meta.dirname, 'load-client.ts'));
  const { stdout } = await run(program, [...args, JSON.stringify({ url, options })], { maxBuffer: 1024 * 1024 });
  return JSON.parse(stdout) as LoadResult;
}
