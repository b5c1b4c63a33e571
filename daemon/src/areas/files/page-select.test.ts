import { expect } from 'chai';
import { selectPage } from './page-select.ts';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const byName = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

/** A repeatable shuffle, so a failure can be reproduced. */
function shuffled(items: string[], seed: number): string[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as string, out[i] as string];
  }
  return out;
}

describe('selectPage', () => {
  const names = Array.from({ length: 1000 }, (_, i) => `${['File', 'file', 'IMG_', 'é', 'a b'][i % 5]}${i}${i % 3 ? '.txt' : ''}`);
  const sorted = [...names].sort(byName);

  it('gives every page exactly as a full sort and slice would, from any starting point and input order', () => {
    for (const [seed, limit] of [
      [1, 1],
      [2, 7],
      [3, 200],
      [4, 999],
      [5, 1000],
      [6, 1500],
    ] as const) {
      const input = shuffled(names, seed);
      for (const start of [-1, 0, 10, 500, 998, 999]) {
        const after = start < 0 ? null : (sorted[start] as string);
        const { page, more } = selectPage(input, byName, (n) => after === null || byName(n, after) > 0, limit);
        const from = start + 1;
        expect(page).to.deep.equal(sorted.slice(from, from + limit));
        expect(more).to.equal(from + limit < sorted.length);
      }
    }
  });

  it('gives the reverse order with a reversed comparison, and nothing after the last item', () => {
    const desc = (a: string, b: string) => -byName(a, b);
    const { page, more } = selectPage(names, desc, () => true, 3);
    expect(page).to.deep.equal([...sorted].reverse().slice(0, 3));
    expect(more).to.equal(true);
    const last = sorted[sorted.length - 1] as string;
    expect(selectPage(names, byName, (n) => byName(n, last) > 0, 10)).to.deep.equal({ page: [], more: false });
  });
});
