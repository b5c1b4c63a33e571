import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, type BigIntStats } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ListingCache, type SnapshotKey } from './listing-cache.ts';

describe('ListingCache', () => {
  let dir: string;
  /** The injected clock: well after the folders' real change times, so they count as settled. */
  let now: number;
  const cache = (options: ConstructorParameters<typeof ListingCache>[0] = {}) => new ListingCache<string>({ now: () => now, ...options });
  const folderAt = (name: string): string => {
    const folder = path.join(dir, name);
    mkdirSync(folder, { recursive: true });
    return folder;
  };
  const stat = (folder: string): BigIntStats => statSync(folder, { bigint: true });
  const key = (folder: string, shareId = 1): SnapshotKey => ({ shareId, root: dir, folder, sort: 'name' });

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'listing-cache-'));
    now = Date.now() + 60_000;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a kept snapshot while the folder is unchanged, per share, folder and sort', () => {
    const c = cache();
    const a = folderAt('a');
    c.put(key(a), stat(a), 10, 'snapshot a');
    expect(c.get(key(a), stat(a))).to.equal('snapshot a');
    expect(c.get({ ...key(a), sort: 'size' }, stat(a))).to.equal(null);
    expect(c.get(key(a, 2), stat(a))).to.equal(null);
    expect(c.size()).to.deep.equal({ snapshots: 1, entries: 10 });
  });

  it('drops a snapshot when the folder mtime or ctime changed', () => {
    const c = cache();
    const a = folderAt('a');
    c.put(key(a), stat(a), 10, 'old');
    // A distinct mtime (the coarse file system clock could repeat the old one within one tick).
    utimesSync(a, 1_600_000_000, 1_600_000_000);
    expect(c.get(key(a), stat(a))).to.equal(null);
    expect(c.size()).to.deep.equal({ snapshots: 0, entries: 0 });
    const taken = stat(a);
    c.put(key(a), taken, 10, 'new');
    // Only ctime moves (mtime set back to what it was, as `rsync -t` or a restore does).
    const changed = { ...taken, ctimeNs: taken.ctimeNs + 1n } as BigIntStats;
    expect(c.get(key(a), changed)).to.equal(null);
  });

  it('drops the snapshots of a folder and of the folders below it on invalidate, in every share and sort', () => {
    const c = cache();
    const a = folderAt('a');
    const below = folderAt('a/deep');
    const sibling = folderAt('ab');
    c.put(key(a), stat(a), 1, 'a');
    c.put({ ...key(a, 2), sort: 'modified' }, stat(a), 1, 'a in share 2');
    c.put(key(below), stat(below), 1, 'below');
    c.put(key(sibling), stat(sibling), 1, 'sibling');
    c.invalidate(a);
    expect(c.get(key(a), stat(a))).to.equal(null);
    expect(c.get({ ...key(a, 2), sort: 'modified' }, stat(a))).to.equal(null);
    expect(c.get(key(below), stat(below))).to.equal(null);
    expect(c.get(key(sibling), stat(sibling))).to.equal('sibling');
  });

  it('drops a snapshot unused for the TTL, and each use extends it', () => {
    const c = cache({ ttlMs: 30_000 });
    const a = folderAt('a');
    c.put(key(a), stat(a), 5, 'a');
    now += 20_000;
    expect(c.get(key(a), stat(a))).to.equal('a');
    now += 20_000;
    expect(c.get(key(a), stat(a))).to.equal('a');
    now += 30_001;
    expect(c.get(key(a), stat(a))).to.equal(null);
    expect(c.size().entries).to.equal(0);
  });

  it('keeps at most maxEntries entries and maxSnapshots snapshots, dropping the least recently used', () => {
    const c = cache({ maxEntries: 100, maxSnapshots: 3 });
    const [a, b, d, e] = ['a', 'b', 'd', 'e'].map(folderAt) as [string, string, string, string];
    c.put(key(a), stat(a), 40, 'a');
    c.put(key(b), stat(b), 40, 'b');
    expect(c.get(key(a), stat(a))).to.equal('a');
    // 120 entries would be too many: b, used least recently, goes.
    c.put(key(d), stat(d), 40, 'd');
    expect(c.get(key(b), stat(b))).to.equal(null);
    expect(c.size()).to.deep.equal({ snapshots: 2, entries: 80 });
    c.put(key(e), stat(e), 1, 'e');
    c.put(key(b), stat(b), 1, 'b');
    // Four snapshots would be too many: a (used before d was put) goes.
    expect(c.size()).to.deep.equal({ snapshots: 3, entries: 42 });
    expect(c.get(key(a), stat(a))).to.equal(null);
    expect(c.get(key(d), stat(d))).to.equal('d');
    // A folder bigger than the whole budget is never kept, and evicts nothing.
    c.put(key(a), stat(a), 101, 'huge');
    expect(c.get(key(a), stat(a))).to.equal(null);
    expect(c.size().snapshots).to.equal(3);
  });

  it('does not keep a snapshot of a folder changed within the settle time (coarse time stamps)', () => {
    const c = cache({ settleMs: 2_000 });
    const a = folderAt('a');
    const s = stat(a);
    now = Number(s.ctimeNs / 1_000_000n) + 1_000;
    c.put(key(a), s, 5, 'racy');
    expect(c.get(key(a), s)).to.equal(null);
    now += 1_500;
    c.put(key(a), s, 5, 'settled');
    expect(c.get(key(a), s)).to.equal('settled');
  });
});
