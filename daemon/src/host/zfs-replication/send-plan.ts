/** A snapshot as both sides list it: `zfs list -t snapshot -H -o name,guid,createtxg`. */
export interface SnapshotRef {
  /** Full name, `pool/dataset@snap`. */
  name: string;
  /** Identity across pools: a received snapshot keeps its guid, while names can be reused. */
  guid: string;
  /** Transaction group of creation on its own pool; orders the source's snapshots. */
  createtxg: number;
}

export type SendPlan =
  | { kind: 'full'; snapshot: string }
  | { kind: 'incremental'; base: string; snapshot: string }
  | { kind: 'up-to-date'; snapshot: string }
  | { kind: 'refused'; code: 'no-source-snapshot' | 'no-common-snapshot' };

const newestFirst = (list: readonly SnapshotRef[]) => [...list].sort((a, b) => b.createtxg - a.createtxg);

/**
 * What to send so the target ends up holding the source's newest snapshot. Snapshots are matched by
 * guid, never by name: a same-named snapshot with another guid is a different snapshot. When the
 * target has snapshots but none in common, the answer is a refusal, never a full send that would
 * need `receive -F` and destroy what the target holds.
 */
export function planSend(source: readonly SnapshotRef[], target: readonly SnapshotRef[]): SendPlan {
  const ordered = newestFirst(source);
  const newest = ordered[0];
  if (!newest) return { kind: 'refused', code: 'no-source-snapshot' };
  if (target.length === 0) return { kind: 'full', snapshot: newest.name };
  const targetGuids = new Set(target.map((s) => s.guid));
  const base = ordered.find((s) => targetGuids.has(s.guid));
  if (!base) return { kind: 'refused', code: 'no-common-snapshot' };
  if (base === newest) return { kind: 'up-to-date', snapshot: newest.name };
  return { kind: 'incremental', base: base.name, snapshot: newest.name };
}
