/**
 * The first `limit` items (in `cmp` order) of those `eligible` admits, and whether more follow,
 * without sorting everything: one pass keeps a sorted window of at most `limit` items. A page
 * of a 100,000-entry folder then costs about one comparison per entry instead of a full sort's
 * seventeen, with exactly the order a full sort would give (`cmp` must be a total order).
 */
export function selectPage<T>(items: Iterable<T>, cmp: (a: T, b: T) => number, eligible: (item: T) => boolean, limit: number): { page: T[]; more: boolean } {
  const page: T[] = [];
  let count = 0;
  for (const item of items) {
    if (!eligible(item)) continue;
    count++;
    if (page.length === limit) {
      const last = page[limit - 1] as T;
      if (cmp(item, last) >= 0) continue;
      page.pop();
    }
    let lo = 0;
    let hi = page.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(page[mid] as T, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    page.splice(lo, 0, item);
  }
  return { page, more: count > limit };
}
