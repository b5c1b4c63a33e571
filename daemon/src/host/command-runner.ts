import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../core/logger.ts';
import { ProblemError } from '../core/problem-error.ts';
import { toolInfo } from './host-tools.ts';

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface CommandOptions {
  /** Milliseconds before the command is killed; default 60 s. */
  timeoutMs?: number;
  /** Written to the command's standard input (for example chpasswd's `user:password`). Never logged. */
  input?: string;
  /** Answer a non-zero exit instead of throwing. */
  allowFailure?: boolean;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

export class CommandError extends Error {
  constructor(
    readonly argv: readonly string[],
    readonly result: CommandResult,
  ) {
    super(`${argv.join(' ')} exited with ${result.exitCode}: ${result.stderr.trim() || result.stdout.trim()}`);
    this.name = 'CommandError';
  }
}

/**
 * Everything that runs on the machine goes through here: argument arrays, never a shell,
 * always a timeout. In development mode (`apply: false`) nothing runs: the exact command is
 * logged at debug level and an empty success answered, so every host effect can say what it
 * would do.
 */
export class CommandRunner {
  constructor(
    private readonly logger: Logger,
    readonly apply: boolean,
  ) {}

  async run(argv: readonly string[], options: CommandOptions = {}): Promise<CommandResult> {
    const [file, ...args] = argv;
    if (!file) throw new Error('empty command');
    if (!this.apply) {
      this.logger.debug('would run', { component: 'host', argv, stdin: options.input === undefined ? undefined : '[redacted]' });
      return { stdout: '', stderr: '', exitCode: 0 };
    }
    return this.exec(file, args, argv, options);
  }

  /** Runs even in development mode: for read-only probes (lsblk, zpool list) whose output the daemon needs. */
  async read(argv: readonly string[], options: CommandOptions = {}): Promise<CommandResult> {
    const [file, ...args] = argv;
    if (!file) throw new Error('empty command');
    return this.exec(file, args, argv, options);
  }

  /**
   * Refuses with host.tool.missing the first of `files` that is not an executable on PATH, so a
   * plan is refused before its first command instead of failing half-way through it.
   */
  async requireTools(files: readonly string[]): Promise<void> {
    if (!this.apply) return;
    const dirs = (process.env.PATH ?? '').split(':').filter(Boolean);
    for (const file of new Set(files)) {
      const candidates = file.includes('/') ? [file] : dirs.map((dir) => path.join(dir, file));
      const found = await Promise.any(candidates.map((c) => access(c, constants.X_OK))).then(
        () => true,
        () => false,
      );
      if (!found) throw new ProblemError('host.tool.missing', toolInfo(file), { detail: `${file} is not installed on this machine` });
    }
  }

  /**
   * Our own timer settles the promise: a child stuck in the kernel (a wedged FUSE file system,
   * a dead disk) may never exit, and execFile would then never call back.
   */
  private exec(file: string, args: string[], argv: readonly string[], options: CommandOptions): Promise<CommandResult> {
    this.logger.debug('run', { component: 'host', argv });
    const timeoutMs = options.timeoutMs ?? 60_000;
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const child = execFile(
        file,
        args,
        { maxBuffer: 64 * 1024 * 1024, env: options.env ?? process.env, encoding: 'utf8', killSignal: 'SIGKILL' },
        (error, stdout, stderr) => {
          settle(() => {
            const errno = (error as NodeJS.ErrnoException | null)?.code;
            if (errno === 'ENOENT') {
              // A program the machine lacks is a state with what to install, not a failure of the box.
              reject(new ProblemError('host.tool.missing', toolInfo(file), { detail: `${file} is not installed on this machine` }));
              return;
            }
            const code = error ? (typeof errno === 'number' ? errno : (child.exitCode ?? -1)) : 0;
            const result = { stdout, stderr, exitCode: code };
            if (code !== 0 && !options.allowFailure) reject(new CommandError(argv, result));
            else resolve(result);
          });
        },
      );
      const giveUp = (why: string) => {
        child.kill('SIGKILL');
        settle(() => reject(new CommandError(argv, { stdout: '', stderr: why, exitCode: -1 })));
      };
      const timer = setTimeout(() => giveUp(`timed out after ${timeoutMs} ms`), timeoutMs);
      const onAbort = () => giveUp('cancelled');
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.input !== undefined) child.stdin?.end(options.input);
      else child.stdin?.end();
    });
  }
}
