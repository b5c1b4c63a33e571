import type { CommandRunner } from './command-runner.ts';

/**
 * Copies a folder's contents into another folder with owners, modes, times and links kept
 * (`cp -a`); the target must exist. Runs through the runner, so development mode only logs it
 * unless the runner applies.
 */
export async function copyTree(runner: CommandRunner, from: string, to: string, signal?: AbortSignal): Promise<void> {
  const r = await runner.run(['cp', '-a', '--', `${from}/.`, `${to}/`], { timeoutMs: 6 * 3600_000, signal, allowFailure: true });
  if (r.exitCode !== 0) throw new Error(`cp failed (${r.exitCode}): ${r.stderr.trim().slice(0, 2000)}`);
}
