import type { SnapshotRef } from './send-plan.ts';

export interface TargetSnapshot extends SnapshotRef {
  /** Creation time in epoch seconds (`zfs get -H -p creation`). */
  creation: number;
}

export interface RetentionRule {
  /** Keep this many newest snapshots. */
  keepNewest?: number;
  /** Keep snapshots younger than this many seconds. */
  keepWithinSeconds?: number;
}

/**
 * Which target snapshots to destroy. A snapshot survives when any rule keeps it; the newest common
 * base (by guid) always survives, because destroying it would make the next run impossible without
 * a full send. With no rule at all nothing is destroyed. The caller destroys through the target's
 * forced command.
 */
export function planTargetRetention(target: readonly TargetSnapshot[], rule: RetentionRule, baseGuid: string | null, nowSeconds: number): string[] {
  if (rule.keepNewest === undefined && rule.keepWithinSeconds === undefined) return [];
  const ordered = [...target].sort((a, b) => b.createtxg - a.createtxg);
  return ordered
    .filter((snap, index) => {
      if (snap.guid === baseGuid) return false;
      if (rule.keepNewest !== undefined && index < rule.keepNewest) return false;
      if (rule.keepWithinSeconds !== undefined && nowSeconds - snap.creation < rule.keepWithinSeconds) return false;
      return true;
    })
    .map((snap) => snap.name);
}
