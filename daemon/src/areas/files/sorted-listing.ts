import { setImmediate as yieldToLoop } from 'node:timers/promises';

/** Natural order ignoring case ("file2" before "File10"); ties fall back to the raw name so the order is total. */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export interface Candidate {
  name: string;
  /** Size or modification time in ns; null when sorting by name. */
  key: bigint | null;
}

/** Ascending order of a listing: by key (when sorting by size or date), then by name. A total order. */
export function compare(a: Candidate, b: Candidate): number {
  if (a.key !== null && b.key !== null && a.key !== b.key) return a.key < b.key ? -1 : 1;
  return collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** A folder's entries in ascending order, kept compact: names and, for size or date order, their keys. */
export interface SortedListing {
  names: string[];
  keys: BigInt64Array | null;
}

function at(list: SortedListing, i: number): Candidate {
  return { name: list.names[i] as string, key: list.keys ? (list.keys[i] as bigint) : null };
}

/** Longest stretch the sort keeps the event loop before letting other requests run. */
const sliceMs = 8;
const runLength = 2048;

/**
 * Sorts ascending with a bottom-up merge sort that yields to the event loop every few
 * milliseconds: a plain sort of 100,000 names with the collator holds the loop for about 150 ms.
 */
export async function sortInSlices(items: Candidate[]): Promise<SortedListing> {
  let a = items.slice();
  let started = performance.now();
  const pause = async () => {
    if (performance.now() - started < sliceMs) return;
    await yieldToLoop();
    started = performance.now();
  };
  for (let lo = 0; lo < a.length; lo += runLength) {
    const run = a.slice(lo, lo + runLength).sort(compare);
    for (let i = 0; i < run.length; i++) a[lo + i] = run[i] as Candidate;
    await pause();
  }
  let b = new Array<Candidate>(a.length);
  for (let width = runLength; width < a.length; width *= 2) {
    for (let lo = 0; lo < a.length; lo += 2 * width) {
      const mid = Math.min(lo + width, a.length);
      const hi = Math.min(lo + 2 * width, a.length);
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k++) {
        // Equal items keep the left one first; with a total order there are none anyway.
        if (i < mid && (j >= hi || compare(a[i] as Candidate, a[j] as Candidate) <= 0)) b[k] = a[i++] as Candidate;
        else b[k] = a[j++] as Candidate;
        if ((k & 1023) === 0) await pause();
      }
    }
    [a, b] = [b, a];
  }
  const keyed = a.length > 0 && a.every((c) => c.key !== null);
  return { names: a.map((c) => c.name), keys: keyed ? BigInt64Array.from(a, (c) => c.key as bigint) : null };
}

/** First index whose entry compares above `after` (`orEqual`: at or above). */
function firstAbove(list: SortedListing, after: Candidate, orEqual: boolean): number {
  let lo = 0;
  let hi = list.names.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = compare(at(list, mid), after);
    if (c > 0 || (orEqual && c === 0)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The `limit` entries that follow the keyset position `after` (null: from the start) in
 * ascending (`sign` 1) or descending (-1) order, and whether more follow: the same page
 * selectPage picks from the unsorted entries, found by binary search.
 */
export function pageOf(list: SortedListing, after: Candidate | null, sign: 1 | -1, limit: number): { page: Candidate[]; more: boolean } {
  const n = list.names.length;
  const page: Candidate[] = [];
  if (sign === 1) {
    const start = after === null ? 0 : firstAbove(list, after, false);
    for (let i = start; i < Math.min(n, start + limit); i++) page.push(at(list, i));
    return { page, more: n - start > limit };
  }
  const end = after === null ? n : firstAbove(list, after, true);
  for (let i = end - 1; i >= Math.max(0, end - limit); i--) page.push(at(list, i));
  return { page, more: end > limit };
}
