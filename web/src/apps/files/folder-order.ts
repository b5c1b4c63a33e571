import type { FileEntry, SortKey, SortOrder } from '../../../../shared/src/api/files/files.ts';

/** The daemon's order (natural, ignoring case, ties by raw name), so live inserts land where a reload would put them. */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function byName(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

function keyOf(entry: FileEntry, sort: SortKey): number {
  if (sort === 'size') return entry.type === 'file' ? entry.size : 0;
  return Date.parse(entry.modified);
}

export function entryComparator(sort: SortKey, order: SortOrder): (a: FileEntry, b: FileEntry) => number {
  const sign = order === 'asc' ? 1 : -1;
  if (sort === 'name') return (a, b) => sign * byName(a.name, b.name);
  return (a, b) => {
    const ka = keyOf(a, sort);
    const kb = keyOf(b, sort);
    return sign * (ka !== kb ? (ka < kb ? -1 : 1) : byName(a.name, b.name));
  };
}

/** Index at which `entry` belongs in the sorted `list` (binary search). */
export function insertionIndex(list: readonly FileEntry[], entry: FileEntry, compare: (a: FileEntry, b: FileEntry) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(list[mid] as FileEntry, entry) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
