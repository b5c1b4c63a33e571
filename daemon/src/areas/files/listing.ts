import { closeSync, fstatSync, lstatSync, openSync, readlinkSync, type BigIntStats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FileEntry, LinkTarget, SortKey, SortOrder } from '../../../../shared/src/api/files/files.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { at, oPath, withDir } from '../../host/nofollow-fs.ts';
import { entryOf } from './file-entry.ts';
import type { ListingCache, SnapshotKey } from './listing-cache.ts';
import { selectPage } from './page-select.ts';
import { isInside, isReservedName } from './safe-path.ts';
import { compare, pageOf, sortInSlices, type Candidate, type SortedListing } from './sorted-listing.ts';

interface Cursor {
  s: SortKey;
  o: SortOrder;
  name: string;
  key: string | null;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(raw: string, sort: SortKey, order: SortOrder): Candidate {
  let c: Partial<Cursor>;
  try {
    c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Cursor>;
  } catch {
    throw new ProblemError('fs.cursor.invalid');
  }
  // A cursor continues the listing it came from: same sort, same order.
  if (c.s !== sort || c.o !== order || typeof c.name !== 'string') throw new ProblemError('fs.cursor.invalid');
  if (sort === 'name') return { name: c.name, key: null };
  if (typeof c.key !== 'string' || !/^\d+$/.test(c.key)) throw new ProblemError('fs.cursor.invalid');
  return { name: c.name, key: BigInt(c.key) };
}

interface Statted {
  name: string;
  stat: BigIntStats;
  link: LinkTarget | null;
  target: BigIntStats | null;
}

/**
 * Where a link among the children leads and what is there, from one descriptor: the link is
 * followed once by the kernel into an O_PATH descriptor, whose /proc path names the object
 * reached and whose fstat is that object's. A second lookup by name (realpath, then lstat of the
 * answer) could be redirected by a folder swapped in between and stat something outside.
 */
function followLink(link: string, root: string): { link: LinkTarget; target: BigIntStats | null } {
  let fd: number;
  try {
    fd = openSync(link, oPath);
  } catch {
    // a link to nothing (or into a loop): shown as broken
    return { link: 'broken', target: null };
  }
  try {
    if (!isInside(readlinkSync(`/proc/self/fd/${fd}`), root)) return { link: 'outside', target: null };
    return { link: 'inside', target: fstatSync(fd, { bigint: true }) };
  } finally {
    closeSync(fd);
  }
}

/** lstat of one child plus, for a link, where it leads; null when it vanished meanwhile. */
function statChild(folder: string, root: string, name: string): Statted | null {
  const full = path.join(folder, name);
  const own = lstatSync(full, { bigint: true, throwIfNoEntry: false });
  if (!own) return null;
  if (!own.isSymbolicLink()) return { name, stat: own, link: null, target: null };
  return { name, stat: own, ...followLink(full, root) };
}

/** Longest stretch the listing keeps the event loop before letting other requests run. */
const sliceMs = 8;

/**
 * Stats children with synchronous calls in slices of about 8 ms, yielding to the event loop
 * between slices. Here a stat through the thread pool costs three to four times a synchronous
 * one, which made a size-sorted page of 100,000 entries take seconds; the slices keep other
 * requests waiting no longer than one slice plus one (possibly slow, cold-disk) stat.
 */
async function statAll(folder: string, root: string, names: string[]): Promise<Statted[]> {
  const out: Statted[] = [];
  let sliceStart = performance.now();
  for (const name of names) {
    const s = statChild(folder, root, name);
    if (s) out.push(s);
    if (performance.now() - sliceStart > sliceMs) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
  }
  return out;
}

function keyOf(s: Statted, sort: SortKey): bigint {
  const shown = s.link === 'inside' && s.target ? s.target : s.stat;
  if (sort === 'size') return shown.isFile() ? shown.size : 0n;
  return shown.mtimeNs;
}

/** A cached folder listing: kept unsorted when a first page got it for free, sorted once on first use. */
export interface FolderSnapshot {
  listing(): Promise<SortedListing>;
}

function snapshotOf(candidates: Candidate[]): FolderSnapshot {
  let raw: Candidate[] | null = candidates;
  let sorted: Promise<SortedListing> | null = null;
  return {
    listing: () => {
      sorted ??= sortInSlices(raw ?? []);
      raw = null;
      return sorted;
    },
  };
}

export interface PageRequest {
  shareId: number;
  folder: string;
  /** The folder's own stat, taken before its entries are read: a snapshot is valid while it is unchanged. */
  folderStat: BigIntStats;
  root: string;
  rel: string;
  sort: SortKey;
  order: SortOrder;
  limit: number;
  cursor: string | undefined;
}

async function readNames(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((n) => !isReservedName(n));
}

/**
 * One page of a folder. Cursors are keyset positions (the last entry's sort key and name),
 * so a page continues right after the last entry seen even when entries come and go.
 * A first page picks its entries in one pass (selectPage) instead of sorting the whole folder,
 * and by name stats only the page's own entries. Pages after it come from a sorted snapshot of
 * the folder (listing-cache.ts) found by binary search, so paging through 100,000 entries does
 * not read the folder again for every page; the page's entries are always stat'ed afresh.
 */
export function listPage(req: PageRequest, cache: ListingCache<FolderSnapshot>): Promise<{ items: FileEntry[]; nextCursor: string | null }> {
  // The folder is read through its descriptor: a folder swapped for a link meanwhile is refused, not listed.
  return withDir(req.folder, (dir) => readPage(req, at(dir), cache));
}

/** listPage with the folder open: `io` reaches its entries, req.folder stays the snapshot's key. */
async function readPage(req: PageRequest, io: string, cache: ListingCache<FolderSnapshot>): Promise<{ items: FileEntry[]; nextCursor: string | null }> {
  const sign = req.order === 'asc' ? 1 : -1;
  const after = req.cursor === undefined ? null : decodeCursor(req.cursor, req.sort, req.order);
  const key: SnapshotKey = { shareId: req.shareId, root: req.root, folder: req.folder, sort: req.sort };
  const cached = cache.get(key, req.folderStat);
  let page: Statted[];
  let chosen: { page: Candidate[]; more: boolean };
  if (cached) {
    chosen = pageOf(await cached.listing(), after, sign, req.limit);
    page = await statAll(
      io,
      req.root,
      chosen.page.map((c) => c.name),
    );
  } else {
    const names = await readNames(io);
    const isAfter = (c: Candidate) => after === null || sign * compare(c, after) > 0;
    let candidates: Candidate[];
    let statted: Statted[] | null = null;
    if (req.sort === 'name') candidates = names.map((name) => ({ name, key: null }));
    else {
      statted = await statAll(io, req.root, names);
      candidates = statted.map((s) => ({ name: s.name, key: keyOf(s, req.sort) }));
    }
    if (after !== null && cache.keeps(req.folderStat, candidates.length)) {
      // A cursor page without a snapshot answers from one pass as before, and sorts a snapshot
      // for the pages after it in the background (in slices; it never fails).
      const snapshot = snapshotOf(candidates);
      cache.put(key, req.folderStat, candidates.length, snapshot);
      // A sort that failed here is simply done again by the page that needs it.
      void snapshot.listing().catch(() => undefined);
    }
    // One pass picks the page without sorting everything; by name only the page's own entries are stat'ed.
    if (statted) {
      const pairs = statted.map((s, i) => ({ s, c: candidates[i] as Candidate }));
      const picked = selectPage(
        pairs,
        (x, y) => sign * compare(x.c, y.c),
        (x) => isAfter(x.c),
        req.limit,
      );
      chosen = { page: picked.page.map((x) => x.c), more: picked.more };
      page = picked.page.map((x) => x.s);
    } else {
      chosen = selectPage(candidates, (x, y) => sign * compare(x, y), isAfter, req.limit);
      page = await statAll(
        io,
        req.root,
        chosen.page.map((c) => c.name),
      );
    }
    // Keeping what was read costs nothing (it is sorted only when a next page asks); only a folder with more pages is worth it.
    if (after === null && chosen.more) cache.put(key, req.folderStat, candidates.length, snapshotOf(candidates));
  }
  const items = page.map((s) => entryOf(req.rel === '' ? s.name : `${req.rel}/${s.name}`, s.name, s.stat, s.link, s.target));
  // The cursor is the last chosen position (by the key it was ordered with), even if that entry vanished meanwhile.
  const last = chosen.page[chosen.page.length - 1];
  const nextCursor =
    chosen.more && last ? encodeCursor({ s: req.sort, o: req.order, name: last.name, key: last.key === null ? null : last.key.toString() }) : null;
  return { items, nextCursor };
}
