import type { ReplicationRetention } from '../../../../../shared/src/api/replication/tasks.ts';
import type { Clock } from '../../../core/clock.ts';
import type { JobContext } from '../../../core/jobs/job-types.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import { planSend } from '../../../host/zfs-replication/send-plan.ts';
import { planTargetRetention, type RetentionRule, type TargetSnapshot } from '../../../host/zfs-replication/target-retention.ts';
import { targetSuffixOf, type TasksService } from './tasks.service.ts';

/** One dataset's stream to the target: full without a base, else incremental from it. */
export interface SendRequest {
  taskId: number;
  pairingId: number;
  /** The source dataset. */
  dataset: string;
  /** Full name of the snapshot to send (`pool/dataset@snap`). */
  snapshot: string;
  /** Full name of the snapshot both sides hold, for an incremental stream; null for a full one. */
  base: string | null;
  /** Where it lands below the pairing's parent on the target. */
  suffix: string;
  /** Bytes per second, or null for no limit. */
  bandwidthLimit: number | null;
  /** Whether the stream carries the dataset's properties (`zfs send -p`). */
  replicateProperties: boolean;
  signal: AbortSignal;
  /** Bytes sent so far of the estimated total. */
  onProgress(bytes: number, total: number): void;
}

/** The send/receive engine (zfs send | ssh | the target's forced command): wired in by the replication area. */
export type ReplicationSend = (req: SendRequest) => Promise<{ bytes: number }>;

/** What a run asks of the target about one dataset, through the pairing. */
export interface ReplicationRemote {
  /** The snapshots of `<parent>/<suffix>` (full names on the target); none when it does not exist yet. */
  list(req: { taskId: number; pairingId: number; suffix: string; signal: AbortSignal }): Promise<TargetSnapshot[]>;
  /** Destroys one snapshot (the part after `@`) of `<parent>/<suffix>`. */
  destroy(req: { taskId: number; pairingId: number; suffix: string; snapshot: string }): Promise<void>;
}

/** The source's side: its snapshots and the hold a task keeps on the one the target holds as newest. */
export interface SourceSnapshots {
  list(dataset: string, signal?: AbortSignal): Promise<TargetSnapshot[]>;
  hold(taskId: number, snapshot: string): Promise<void>;
  release(taskId: number, snapshot: string): Promise<void>;
}

export interface RunDeps {
  tasks: TasksService;
  send: ReplicationSend;
  remote: ReplicationRemote;
  source: SourceSnapshots;
  clock: Clock;
  /** Bytes of a running run, for the task topic. */
  progress(taskId: number, jobId: number, bytes: number, total: number): void;
}

export interface RunResult {
  bytes: number;
  /** The newest snapshot the target now holds of the task's last dataset. */
  snapshot: string | null;
  datasets: number;
}

const day = 86_400;
const rule = (r: ReplicationRetention): RetentionRule => (r.kind === 'count' ? { keepNewest: r.count } : { keepWithinSeconds: r.days * day });

/**
 * One run of a task: per dataset the plan (full, incremental from the newest snapshot both sides
 * hold, or nothing new), the send, a hold on the source's new base in place of the old one, then
 * the target's retention. A target with snapshots but none in common ends the run with its code:
 * only a full send over it (`receive -F`) could go on, and that destroys data, so it is never done here.
 */
export async function runReplication(deps: RunDeps, ctx: JobContext<{ taskId: number }>): Promise<RunResult> {
  const { signal } = ctx;
  const task = await deps.tasks.task(ctx.params.taskId);
  if (!task) throw new ProblemError('replication.task.not_found', { taskId: ctx.params.taskId });
  const pairing = await deps.tasks.pairing(task.pairingId);
  if (!pairing) throw new ProblemError('replication.run.pairing_gone', { pairingId: task.pairingId });
  // Checked again at the run: a share deleted since the task was saved is not sent from whatever took its name.
  const sources = new Set((await deps.tasks.sourceDatasets()).map((s) => s.dataset));
  const gone = task.datasets.find((d) => !sources.has(d));
  if (gone) throw new ProblemError('replication.run.dataset_gone', { dataset: gone });
  await deps.tasks.runStarted(task.id);
  const at = { taskId: task.id, pairingId: task.pairingId };
  let sent = 0;
  let last: string | null = null;
  for (const dataset of task.datasets) {
    signal.throwIfAborted();
    const suffix = targetSuffixOf(task.targetSuffix, dataset);
    const source = await deps.source.list(dataset, signal);
    const plan = planSend(source, await deps.remote.list({ ...at, suffix, signal }));
    if (plan.kind === 'refused') {
      if (plan.code === 'no-source-snapshot') throw new ProblemError('replication.run.no_source_snapshot', { dataset });
      throw new ProblemError('replication.run.no_common_snapshot', { dataset, target: `${pairing.parent}/${suffix}` });
    }
    if (plan.kind !== 'up-to-date') {
      const before = sent;
      const result = await deps.send({
        ...at,
        dataset,
        snapshot: plan.snapshot,
        base: plan.kind === 'incremental' ? plan.base : null,
        suffix,
        bandwidthLimit: task.bandwidthLimit,
        replicateProperties: task.replicateProperties,
        signal,
        onProgress: (bytes, total) => {
          ctx.progress(before + bytes, before + Math.max(bytes, total), 'bytes');
          deps.progress(task.id, ctx.jobId, before + bytes, before + Math.max(bytes, total));
        },
      });
      sent = before + result.bytes;
    }
    last = plan.snapshot;
    await deps.tasks.runProgress(ctx.jobId, task.id, sent, plan.snapshot);
    await deps.source.hold(task.id, plan.snapshot);
    if (plan.kind === 'incremental') await deps.source.release(task.id, plan.base);
    const baseGuid = source.find((s) => s.name === plan.snapshot)?.guid ?? null;
    const target = await deps.remote.list({ ...at, suffix, signal });
    for (const doomed of planTargetRetention(target, rule(task.retention), baseGuid, Math.floor(deps.clock.now() / 1000))) {
      await deps.remote.destroy({ ...at, suffix, snapshot: doomed.slice(doomed.indexOf('@') + 1) });
      ctx.logger.info('target snapshot pruned', { logCode: 'replication.targetPruned', component: 'replication', taskId: task.id, snapshot: doomed });
    }
  }
  return { bytes: sent, snapshot: last, datasets: task.datasets.length };
}
