import { expect } from 'chai';
import { selectPage } from './page-select.ts';
import { compare, pageOf, sortInSlices, type Candidate } from './sorted-listing.ts';

/** A repeatable pseudo-random sequence, so a failure can be reproduced. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s;
  };
}

describe('sorted listings', () => {
  const next = random(7);
  // More than a few sort runs (2,048) and not a multiple of them, so every merge step is exercised.
  const names = Array.from({ length: 9_001 }, (_, i) => `${['File', 'file', 'IMG_', 'é', 'a b'][i % 5]}${next() % 5000}-${i}${i % 3 ? '.txt' : ''}`);
  const byName: Candidate[] = names.map((name) => ({ name, key: null }));
  // Few distinct keys: many ties, broken by name.
  const bySize: Candidate[] = names.map((name) => ({ name, key: BigInt(next() % 50) }));

  it('sorts exactly as a full sort with the same comparison, by name and by key', async () => {
    for (const items of [byName, bySize, byName.slice(0, 3), []]) {
      const sorted = await sortInSlices(items);
      const expected = [...items].sort(compare);
      expect(sorted.names).to.deep.equal(expected.map((c) => c.name));
      if (items[0]?.key === null || items.length === 0) expect(sorted.keys).to.equal(null);
      else expect([...(sorted.keys ?? [])]).to.deep.equal(expected.map((c) => c.key));
    }
  });

  it('pages exactly as selectPage does, in both orders, from positions in the list and between its entries', async () => {
    for (const items of [byName, bySize]) {
      const sorted = await sortInSlices(items);
      const positions: (Candidate | null)[] = [
        null,
        ...[0, 1, 500, 4_000, 8_999, 9_000].map((i) => items[i] as Candidate),
        { name: 'zzzz', key: 25n },
        { name: '', key: 0n },
      ];
      for (const after of positions) {
        const from = after && items[0]?.key === null ? { ...after, key: null } : after;
        for (const sign of [1, -1] as const) {
          for (const limit of [1, 200, 10_000]) {
            const expected = selectPage(
              items,
              (a, b) => sign * compare(a, b),
              (c) => from === null || sign * compare(c, from) > 0,
              limit,
            );
            const got = pageOf(sorted, from, sign, limit);
            expect(got.more, `more after ${from?.name} sign ${sign} limit ${limit}`).to.equal(expected.more);
            expect(got.page).to.deep.equal(expected.page);
          }
        }
      }
    }
  });
});
