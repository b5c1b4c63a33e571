import { spawn } from 'node:child_process';
import { ProblemError } from '../../core/problem-error.ts';
import { toolInfo } from '../host-tools.ts';

export interface GitRun {
  stdout: string;
  stderr: string;
}

/** Why a run of git or ssh-keygen ended without success: the words of a catalog's last error. */
export class GitFailure extends Error {
  constructor(
    readonly reason: 'timeout' | 'cancelled' | 'exit' | 'tooLarge',
    readonly stderr: string,
  ) {
    super(reason === 'exit' ? stderr.trim().split('\n').slice(-3).join(' ') || 'git failed' : reason);
    this.name = 'GitFailure';
  }
}

/**
 * Runs a program as an argument array in a process group of its own, so a time limit or a
 * cancel kills git together with the helpers it starts (git-remote-http, ssh), which would
 * otherwise keep a stuck connection open after git itself is gone.
 */
export function runTool(argv: readonly string[], options: { env: NodeJS.ProcessEnv; timeoutMs: number; signal?: AbortSignal; cwd?: string }): Promise<GitRun> {
  const [file, ...args] = argv;
  if (!file) throw new Error('empty command');
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: options.env, cwd: options.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout = (stdout + d).slice(-1024 * 1024)));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-64 * 1024)));
    let ended: GitFailure | null = null;
    const killGroup = (why: 'timeout' | 'cancelled') => {
      ended ??= new GitFailure(why, stderr);
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(() => killGroup('timeout'), options.timeoutMs);
    const onAbort = () => killGroup('cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    const finish = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (err: NodeJS.ErrnoException) => {
      finish();
      if (err.code === 'ENOENT') reject(new ProblemError('host.tool.missing', toolInfo(file), { detail: `${file} is not installed on this machine` }));
      else reject(err);
    });
    child.on('close', (code) => {
      finish();
      if (ended) reject(ended);
      else if (code !== 0) reject(new GitFailure('exit', stderr));
      else resolve({ stdout, stderr });
    });
  });
}
