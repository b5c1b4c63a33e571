import type { BigIntStats } from 'node:fs';
import path from 'node:path';
import type { SortKey } from '../../../../shared/src/api/files/files.ts';

/** Which listing a snapshot holds: the share (its root decides which links count as inside), the folder's real path, the sort. */
export interface SnapshotKey {
  shareId: number;
  root: string;
  folder: string;
  sort: SortKey;
}

export interface ListingCacheOptions {
  /** Wall clock in ms; injected by tests. It is compared with the folder's own timestamps too. */
  now?: () => number;
  /** A snapshot unused this long is dropped. */
  ttlMs?: number;
  /** Entries of all snapshots together; the least recently used go first. */
  maxEntries?: number;
  maxSnapshots?: number;
  /**
   * A folder changed this recently is not kept: file systems stamp times with a coarse clock, so a
   * second change within the same tick would leave mtime and ctime as they were (git's "racy" case).
   */
  settleMs?: number;
}

interface Slot<T> {
  key: SnapshotKey;
  stamp: string;
  count: number;
  lastUsed: number;
  value: T;
}

/** The folder's identity and change times: a creation, deletion or rename in it changes mtime and ctime. */
function stampOf(s: BigIntStats): string {
  return `${s.dev}:${s.ino}:${s.mtimeNs}:${s.ctimeNs}`;
}

function idOf(k: SnapshotKey): string {
  return `${k.shareId}\0${k.root}\0${k.folder}\0${k.sort}`;
}

/**
 * Per-daemon snapshots of big folders' listings, so a cursor page does not read (and, for size
 * and date order, stat) the whole folder again. A snapshot is used only while the folder's own
 * stat (taken by the request anyway) is unchanged, and dropped by `invalidate` on the daemon's
 * own writes. Names are exact that way. A file's size or mtime changing does not change its
 * folder's mtime, so size and date order may be up to `ttlMs` stale; the page's entries are
 * stat'ed afresh and keyset cursors keep continuing correctly either way.
 */
export class ListingCache<T> {
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxSnapshots: number;
  private readonly settleMs: number;
  /** Insertion order is use order: the first slot is the least recently used. */
  private readonly slots = new Map<string, Slot<T>>();
  private entries = 0;

  constructor(options: ListingCacheOptions = {}) {
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? 30_000;
    // About 50 bytes an entry once sorted: some 12 MB at most.
    this.maxEntries = options.maxEntries ?? 250_000;
    this.maxSnapshots = options.maxSnapshots ?? 8;
    this.settleMs = options.settleMs ?? 2_000;
  }

  /** The snapshot of `key` while `folderStat` still matches the one it was taken with. */
  get(key: SnapshotKey, folderStat: BigIntStats): T | null {
    const id = idOf(key);
    const slot = this.slots.get(id);
    if (!slot) return null;
    const now = this.now();
    if (slot.stamp !== stampOf(folderStat) || now - slot.lastUsed > this.ttlMs) {
      this.drop(id, slot);
      return null;
    }
    slot.lastUsed = now;
    this.slots.delete(id);
    this.slots.set(id, slot);
    return slot.value;
  }

  /** Whether `put` would keep a snapshot of `count` entries of a folder with this stat: not while it settles, not when too big. */
  keeps(folderStat: BigIntStats, count: number): boolean {
    const changedMs = Number((folderStat.mtimeNs > folderStat.ctimeNs ? folderStat.mtimeNs : folderStat.ctimeNs) / 1_000_000n);
    return count <= this.maxEntries && this.now() - changedMs >= this.settleMs;
  }

  /** Keeps a snapshot of `count` entries read after `folderStat` was taken, when `keeps` allows. */
  put(key: SnapshotKey, folderStat: BigIntStats, count: number, value: T): void {
    const id = idOf(key);
    const old = this.slots.get(id);
    if (old) this.drop(id, old);
    if (!this.keeps(folderStat, count)) return;
    const now = this.now();
    this.sweep(now);
    while (this.slots.size > 0 && (this.entries + count > this.maxEntries || this.slots.size >= this.maxSnapshots)) {
      const [lruId, lru] = this.slots.entries().next().value as [string, Slot<T>];
      this.drop(lruId, lru);
    }
    this.slots.set(id, { key, stamp: stampOf(folderStat), count, lastUsed: now, value });
    this.entries += count;
  }

  /** Drops every snapshot of `folder` and of the folders below it (a merge or restore may write deep), in every share. */
  invalidate(folder: string): void {
    const prefix = folder.endsWith(path.sep) ? folder : folder + path.sep;
    for (const [id, slot] of [...this.slots]) if (slot.key.folder === folder || slot.key.folder.startsWith(prefix)) this.drop(id, slot);
  }

  /** Snapshots held and their entries together (for tests and diagnostics). */
  size(): { snapshots: number; entries: number } {
    return { snapshots: this.slots.size, entries: this.entries };
  }

  private sweep(now: number): void {
    for (const [id, slot] of [...this.slots]) if (now - slot.lastUsed > this.ttlMs) this.drop(id, slot);
  }

  private drop(id: string, slot: Slot<T>): void {
    this.slots.delete(id);
    this.entries -= slot.count;
  }
}
