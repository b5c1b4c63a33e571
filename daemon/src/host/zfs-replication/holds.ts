import type { CommandRunner } from '../command-runner.ts';
import type { SourceSnapshot } from './snapshot-list.ts';

/**
 * Keeps a `zfs hold` with the task's tag on the source snapshot the target holds as its newest,
 * so no retention on the source can destroy the base of the next incremental send (a held
 * snapshot's destroy fails "dataset is busy"); every older snapshot carrying the tag is released.
 * zfs-fuse has hold and release but not `zfs holds`, so the tag's snapshots are not listed: every
 * snapshot with holds is asked, and "no such tag" is the answer for the ones without ours.
 */
export async function moveHold(runner: CommandRunner, tag: string, keep: string, snapshots: readonly SourceSnapshot[]): Promise<void> {
  const held = await runner.run(['zfs', 'hold', tag, keep], { allowFailure: true });
  if (held.exitCode !== 0 && !/tag already exists/.test(held.stderr)) throw new Error(`zfs hold ${tag} ${keep}: ${held.stderr.trim()}`);
  for (const snap of snapshots) {
    if (snap.name === keep || snap.userrefs < 1) continue;
    const released = await runner.run(['zfs', 'release', tag, snap.name], { allowFailure: true });
    if (released.exitCode !== 0 && !/no such tag/.test(released.stderr)) throw new Error(`zfs release ${tag} ${snap.name}: ${released.stderr.trim()}`);
  }
}
