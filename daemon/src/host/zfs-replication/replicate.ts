import type { CommandRunner } from '../command-runner.ts';
import type { ReplicationFailure } from './failure-codes.ts';
import { moveHold } from './holds.ts';
import { runSend, type SendProgress } from './run-send.ts';
import { planSend } from './send-plan.ts';
import { listSourceSnapshots } from './snapshot-list.ts';
import type { ReplicationTarget } from './ssh-target.ts';
import { listTargetSnapshots } from './target-list.ts';

export interface ReplicateRequest {
  /** The source dataset, `pool/dataset`. */
  dataset: string;
  target: ReplicationTarget;
  remoteSuffix: string;
  /** The `zfs hold` tag of this task, one per task so tasks sending the same dataset keep their own bases. */
  holdTag: string;
  bandwidthLimit?: number | null;
  signal?: AbortSignal;
  onProgress?: (progress: SendProgress) => void;
}

export type ReplicateOutcome =
  { ok: true; kind: 'full' | 'incremental' | 'up-to-date'; snapshot: string; base?: string; bytes: number } | (ReplicationFailure & { kind?: undefined });

/**
 * One run of a task: list both sides, plan (send-plan.ts: matched by guid, never a destroying full
 * send over target data), send, then move the task's hold to the snapshot the target now holds.
 * A failed run leaves the hold on the old base, which the next run starts from again.
 */
export async function replicateOnce(runner: CommandRunner, request: ReplicateRequest): Promise<ReplicateOutcome> {
  const source = await listSourceSnapshots(runner, request.dataset);
  let listed;
  try {
    listed = await listTargetSnapshots(runner, request.target, request.remoteSuffix, request.signal);
  } catch (err) {
    if (request.signal?.aborted) return { ok: false, code: 'cancelled', detail: 'the run was cancelled', bytes: 0 };
    throw err;
  }
  if (!listed.ok) return listed;
  const plan = planSend(source, listed.snapshots);
  if (plan.kind === 'refused') {
    const detail =
      plan.code === 'no-common-snapshot'
        ? "the target holds snapshots but none of the source's: only a full send can start over"
        : 'the dataset has no snapshot';
    return { ok: false, code: plan.code, detail, bytes: 0 };
  }
  if (plan.kind === 'up-to-date') {
    await moveHold(runner, request.holdTag, plan.snapshot, source);
    return { ok: true, kind: 'up-to-date', snapshot: plan.snapshot, bytes: 0 };
  }
  const base = plan.kind === 'incremental' ? plan.base : undefined;
  const sent = await runSend(runner, {
    target: request.target,
    snapshot: plan.snapshot,
    base,
    remoteSuffix: request.remoteSuffix,
    bandwidthLimit: request.bandwidthLimit,
    signal: request.signal,
    onProgress: request.onProgress,
  });
  if (!sent.ok) return sent;
  await moveHold(runner, request.holdTag, plan.snapshot, source);
  return { ok: true, kind: plan.kind, snapshot: plan.snapshot, base, bytes: sent.bytes };
}
