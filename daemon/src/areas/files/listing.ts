import { lstatSync, realpathSync, statSync, type BigIntStats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FileEntry, LinkTarget, SortKey, SortOrder } from '../../../../shared/src/api/files.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { entryOf } from './file-entry.ts';
import { selectPage } from './page-select.ts';
import { isInside, isReservedName } from './safe-path.ts';

/** Natural order ignoring case ("file2" before "File10"); ties fall back to the raw name so the order is total. */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

interface Candidate {
  name: string;
  /** Size or modification time in ns; null when sorting by name. */
  key: bigint | null;
}

interface Cursor {
  s: SortKey;
  o: SortOrder;
  name: string;
  key: string | null;
}

function compare(a: Candidate, b: Candidate): number {
  if (a.key !== null && b.key !== null && a.key !== b.key) return a.key < b.key ? -1 : 1;
  return collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
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

/** lstat of one child plus, for a link, where it leads; null when it vanished meanwhile. */
function statChild(folder: string, root: string, name: string): Statted | null {
  const full = path.join(folder, name);
  const own = lstatSync(full, { bigint: true, throwIfNoEntry: false });
  if (!own) return null;
  if (!own.isSymbolicLink()) return { name, stat: own, link: null, target: null };
  let real: string | null = null;
  try {
    real = realpathSync.native(full);
  } catch {
    // a link to nothing: shown as broken
  }
  const link: LinkTarget = real === null ? 'broken' : isInside(real, root) ? 'inside' : 'outside';
  const target = link === 'inside' && real !== null ? (statSync(real, { bigint: true, throwIfNoEntry: false }) ?? null) : null;
  return { name, stat: own, link, target };
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

export interface PageRequest {
  folder: string;
  root: string;
  rel: string;
  sort: SortKey;
  order: SortOrder;
  limit: number;
  cursor: string | undefined;
}

/**
 * One page of a folder. Cursors are keyset positions (the last entry's sort key and name),
 * so a page continues right after the last entry seen even when entries come and go.
 * By name, only the page's own entries are stat'ed, and every order picks its page in one
 * pass (selectPage) instead of sorting the whole folder, which keeps huge folders quick.
 */
export async function listPage(req: PageRequest): Promise<{ items: FileEntry[]; nextCursor: string | null }> {
  const names = (await readdir(req.folder)).filter((n) => !isReservedName(n));
  const sign = req.order === 'asc' ? 1 : -1;
  const after = req.cursor === undefined ? null : decodeCursor(req.cursor, req.sort, req.order);
  const isAfter = (c: Candidate) => after === null || sign * compare(c, after) > 0;
  let page: Statted[];
  let more: boolean;
  if (req.sort === 'name') {
    const chosen = selectPage(
      names.map((name) => ({ name, key: null })),
      (a, b) => sign * compare(a, b),
      isAfter,
      req.limit,
    );
    more = chosen.more;
    page = await statAll(req.folder, req.root, chosen.page.map((c) => c.name));
  } else {
    const all = (await statAll(req.folder, req.root, names)).map((s) => ({ s, c: { name: s.name, key: keyOf(s, req.sort) } }));
    const chosen = selectPage(all, (a, b) => sign * compare(a.c, b.c), (x) => isAfter(x.c), req.limit);
    more = chosen.more;
    page = chosen.page.map((x) => x.s);
  }
  const items = page.map((s) => entryOf(req.rel === '' ? s.name : `${req.rel}/${s.name}`, s.name, s.stat, s.link, s.target));
  const last = page[page.length - 1];
  const nextCursor = more && last ? encodeCursor({ s: req.sort, o: req.order, name: last.name, key: req.sort === 'name' ? null : keyOf(last, req.sort).toString() }) : null;
  return { items, nextCursor };
}
