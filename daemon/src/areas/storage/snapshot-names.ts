import type { ServiceKind, SnapshotKind } from '../../../../shared/src/api/storage/storage.ts';
import { fromWallTime, wallTime } from '../../core/zoned-time.ts';

/** `20261122T024600Z`: UTC, sortable, no characters ZFS refuses. */
export function compactUtc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

export function parseCompactUtc(text: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) return null;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

export function serviceSnapshotName(kind: ServiceKind, ms: number): string {
  return `service-${kind}-${compactUtc(ms)}`;
}

/** The kind and time of a service snapshot's name, or null for anybody else's snapshot. */
export function parseServiceName(name: string): { kind: ServiceKind; at: number } | null {
  const m = /^service-(manual|restore|hourly|daily|weekly|monthly)-(\d{8}T\d{6}Z)$/.exec(name);
  if (!m) return null;
  const at = parseCompactUtc(m[2] ?? '');
  return at === null ? null : { kind: m[1] as ServiceKind, at };
}

/** Start of the hour, day, week (from Monday) or month holding `ms`, on the wall clock of `zone` (the box's). */
export function periodStart(kind: SnapshotKind, ms: number, zone = 'UTC'): number {
  const w = wallTime(ms, zone);
  switch (kind) {
    case 'hourly':
      return fromWallTime({ ...w, minute: 0, second: 0 }, zone);
    case 'daily':
      return fromWallTime({ ...w, hour: 0, minute: 0, second: 0 }, zone);
    case 'weekly':
      return fromWallTime({ ...w, day: w.day - ((w.weekday + 6) % 7), hour: 0, minute: 0, second: 0 }, zone);
    case 'monthly':
      return fromWallTime({ ...w, day: 1, hour: 0, minute: 0, second: 0 }, zone);
  }
}

export interface PruneCandidate {
  name: string;
  /** The kind recorded in the snapshot's `cellar:kind` property (null when absent). */
  recordedKind: string | null;
  holds: number;
}

/**
 * The snapshots one schedule deletes: only its own (name and recorded kind agree), never held
 * ones, never ones dated after now; of the rest the newest `keep` stay.
 */
export function snapshotsToPrune(snapshots: readonly PruneCandidate[], kind: SnapshotKind, keep: number, now: number): string[] {
  const own: { name: string; at: number }[] = [];
  for (const s of snapshots) {
    const parsed = parseServiceName(s.name);
    if (!parsed || parsed.kind !== kind || s.recordedKind !== kind) continue;
    if (parsed.at > now) continue;
    own.push({ name: s.name, at: parsed.at });
  }
  own.sort((a, b) => b.at - a.at);
  const held = new Set(snapshots.filter((s) => s.holds > 0).map((s) => s.name));
  // Held ones count towards keep (they stay anyway) but are never deleted.
  return own
    .slice(keep)
    .filter((s) => !held.has(s.name))
    .map((s) => s.name);
}
