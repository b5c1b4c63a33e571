import { mkdir } from 'node:fs/promises';
import type { CommandRunner } from '../command-runner.ts';
import type { SystemFileSystem } from '../../../../shared/src/api/installer/installer.ts';
import { systemPool, type InstallAction, type InstallStep, type TargetLayout } from './install-plan.ts';

export interface StepHooks {
  progress(done: number, total: number, label: string): void;
  /** The installer's writes into the mounted target. */
  configure(): Promise<void>;
}

/** Commands that write the image take longer than the default minute on real disks. */
const longStepMs = 30 * 60 * 1000;

/**
 * Runs the steps in order; a failed step leaves the disk half written, so whatever the installer
 * mounted is taken down again before the error goes on. Without `apply` (development) the
 * runner only logs each command and the installer's own writes are skipped.
 */
export async function runInstallSteps(
  steps: InstallStep[],
  layout: TargetLayout,
  fileSystem: SystemFileSystem,
  runner: CommandRunner,
  hooks: StepHooks,
): Promise<void> {
  const actions: Record<InstallAction, () => Promise<void>> = { configure: hooks.configure };
  try {
    await mkdir(layout.target, { recursive: true });
    await mkdir(layout.efiStaging, { recursive: true });
    for (const [i, step] of steps.entries()) {
      hooks.progress(i, steps.length, step.label);
      if (step.argv) await runner.run(step.argv, { timeoutMs: longStepMs });
      else if (step.action && runner.apply) await actions[step.action]();
    }
    hooks.progress(steps.length, steps.length, 'Done');
  } catch (err) {
    await releaseTarget(layout, fileSystem, runner);
    throw err;
  }
}

/** Unmounts everything below the target and exports a system pool; nothing of it may be left when this ends. */
export async function releaseTarget(layout: TargetLayout, fileSystem: SystemFileSystem, runner: CommandRunner): Promise<void> {
  await runner.run(['umount', '-R', layout.target], { allowFailure: true });
  if (fileSystem === 'zfs') await runner.run(['zpool', 'export', systemPool], { allowFailure: true });
}

/** The file system UUID of a partition (fstab and grub.cfg name partitions by it). */
export async function uuidOf(runner: CommandRunner, device: string): Promise<string> {
  const r = await runner.read(['blkid', '-s', 'UUID', '-o', 'value', device]);
  return r.stdout.trim();
}
