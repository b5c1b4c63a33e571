import type { CommandRunner } from '../command-runner.ts';
import { classifySsh, type ReplicationFailure } from './failure-codes.ts';
import { missingDataset, parseSnapshotGet } from './snapshot-list.ts';
import { sshArgv, type ReplicationTarget } from './ssh-target.ts';
import type { TargetSnapshot } from './target-retention.ts';

export type TargetList = { ok: true; snapshots: TargetSnapshot[] } | ReplicationFailure;

/**
 * The target's snapshots of `<parent>/<suffix>` through the forced command's `list`, which answers
 * `zfs get -H -p` lines of guid, createtxg and creation. A dataset not there yet (before the first
 * send) is an empty list; every other failure gets its code, as a send's would.
 */
export async function listTargetSnapshots(runner: CommandRunner, target: ReplicationTarget, suffix: string, signal?: AbortSignal): Promise<TargetList> {
  const r = await runner.read(sshArgv(target, 'list', suffix), { allowFailure: true, timeoutMs: 60_000, signal });
  if (r.exitCode === 0) {
    return { ok: true, snapshots: parseSnapshotGet(r.stdout).map(({ name, guid, createtxg, creation }) => ({ name, guid, createtxg, creation })) };
  }
  if (r.exitCode === 1 && missingDataset.test(r.stderr)) return { ok: true, snapshots: [] };
  const code = classifySsh({ exitCode: r.exitCode, stderr: r.stderr, streamStarted: false }) ?? 'send-failed';
  return { ok: false, code, detail: r.stderr.trim(), bytes: 0 };
}
