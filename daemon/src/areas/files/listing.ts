import type { BigIntStats } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { FileEntry, LinkTarget, SortKey, SortOrder } from '../../../../shared/src/api/files.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { entryOf, targetStat } from './file-entry.ts';
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
async function statChild(folder: string, root: string, name: string): Promise<Statted | null> {
  const full = path.join(folder, name);
  const own = await lstat(full, { bigint: true }).catch(() => null);
  if (!own) return null;
  if (!own.isSymbolicLink()) return { name, stat: own, link: null, target: null };
  const real = await realpath(full).catch(() => null);
  const link: LinkTarget = real === null ? 'broken' : isInside(real, root) ? 'inside' : 'outside';
  return { name, stat: own, link, target: real === null ? null : await targetStat(link, real) };
}

async function statAll(folder: string, root: string, names: string[]): Promise<Statted[]> {
  const out: Statted[] = [];
  const batch = 64;
  for (let i = 0; i < names.length; i += batch) {
    const done = await Promise.all(names.slice(i, i + batch).map((n) => statChild(folder, root, n)));
    for (const s of done) if (s) out.push(s);
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
 * By name, only the page's own entries are stat'ed, which keeps huge folders quick.
 */
export async function listPage(req: PageRequest): Promise<{ items: FileEntry[]; nextCursor: string | null }> {
  const names = (await readdir(req.folder)).filter((n) => !isReservedName(n));
  const sign = req.order === 'asc' ? 1 : -1;
  const after = req.cursor === undefined ? null : decodeCursor(req.cursor, req.sort, req.order);
  let page: Statted[];
  let more: boolean;
  if (req.sort === 'name') {
    const sorted = names.map((name) => ({ name, key: null })).sort((a, b) => sign * compare(a, b));
    const start = after ? sorted.findIndex((c) => sign * compare(c, after) > 0) : 0;
    const slice = start < 0 ? [] : sorted.slice(start, start + req.limit);
    more = start >= 0 && start + req.limit < sorted.length;
    page = await statAll(req.folder, req.root, slice.map((c) => c.name));
  } else {
    const all = (await statAll(req.folder, req.root, names)).map((s) => ({ s, c: { name: s.name, key: keyOf(s, req.sort) } }));
    all.sort((a, b) => sign * compare(a.c, b.c));
    const start = after ? all.findIndex((x) => sign * compare(x.c, after) > 0) : 0;
    page = start < 0 ? [] : all.slice(start, start + req.limit).map((x) => x.s);
    more = start >= 0 && start + req.limit < all.length;
  }
  const items = page.map((s) => entryOf(req.rel === '' ? s.name : `${req.rel}/${s.name}`, s.name, s.stat, s.link, s.target));
  const last = page[page.length - 1];
  const nextCursor = more && last ? encodeCursor({ s: req.sort, o: req.order, name: last.name, key: req.sort === 'name' ? null : keyOf(last, req.sort).toString() }) : null;
  return { items, nextCursor };
}
