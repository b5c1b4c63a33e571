import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fastest, timed } from './lib/best-of.ts';
import { startSignedInDaemon, type DaemonSession } from './lib/daemon-session.ts';
import { bigFolder, folderEntries } from './lib/file-fixtures.ts';
import type { BenchRow } from './lib/table.ts';

interface Page {
  items: unknown[];
  nextCursor: string | null;
}

/** Pages of the 100,000-entry folder against the whole folder read and stat'ed by Node itself. */
async function listingRows(daemon: DaemonSession): Promise<BenchRow[]> {
  const folder = bigFolder();
  const share = await daemon.json<{ id: number }>('POST', '/api/shares', { name: 'Bench folder', hostPath: folder });
  // The baseline is what any listing that looks at every entry pays: readdir plus an lstat of each.
  const baseline = await fastest(() =>
    timed(() => {
      for (const name of readdirSync(folder)) lstatSync(path.join(folder, name));
    }),
  );
  const list = async (query: string): Promise<Page> => daemon.json<Page>('GET', `/api/files/${share.id}/list?${query}`);
  const first = await list('sort=name');
  if (first.items.length !== 200 || !first.nextCursor) throw new Error('the first page of the big folder is not a full page with a cursor');
  const cursor = first.nextCursor;
  const bySize = await list('sort=size');
  // Setting the folder's times again changes its ctime: the daemon's listing snapshot is dropped, the page is cold.
  // Then a wait: the daemon keeps no snapshot of a folder changed in the last two seconds (listing-cache.ts).
  const { atime, mtime } = statSync(folder);
  const cold = async () => {
    utimesSync(folder, atime, mtime);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
  };
  const pages: { name: string; query: string; target: number; cold?: boolean }[] = [
    { name: 'first page (cold)', query: 'sort=name', target: 0.5, cold: true },
    { name: 'first page', query: 'sort=name', target: 0.5 },
    { name: 'next page (cold)', query: `sort=name&cursor=${encodeURIComponent(cursor)}`, target: 0.5, cold: true },
    { name: 'next page', query: `sort=name&cursor=${encodeURIComponent(cursor)}`, target: 0.5 },
    // Size and date order need every entry's stat: they can only match the baseline, plus sorting and HTTP.
    { name: 'first page by size (cold)', query: 'sort=size', target: 2, cold: true },
    { name: 'first page by modified (cold)', query: 'sort=modified', target: 2, cold: true },
    { name: 'next page by size', query: `sort=size&cursor=${encodeURIComponent(bySize.nextCursor ?? '')}`, target: 0.5 },
  ];
  const rows: BenchRow[] = [];
  for (const page of pages) {
    const ms = await fastest(async () => {
      if (page.cold) await cold();
      return timed(() => list(page.query));
    });
    rows.push({
      name: `${page.name} of ${folderEntries} entries (200)`,
      value: ms,
      unit: 'ms',
      baseline,
      baselineName: 'Node readdir + lstat all',
      target: `ratio at most ${page.target}`,
      ok: ms / baseline <= page.target,
    });
  }
  // Scrolling to the end: every page of 1,000 by name, the first one cold.
  const walk = await fastest(async () => {
    await cold();
    return timed(async () => {
      let next: string | null = (await list('sort=name&limit=1000')).nextCursor;
      while (next) next = (await list(`sort=name&limit=1000&cursor=${encodeURIComponent(next)}`)).nextCursor;
    });
  });
  rows.push({
    name: `all pages of ${folderEntries} entries (1,000 each)`,
    value: walk,
    unit: 'ms',
    baseline,
    baselineName: 'Node readdir + lstat all',
    target: 'ratio at most 5',
    ok: walk / baseline <= 5,
  });
  return rows;
}

/**
 * Listing of a large folder against Node on this machine (transfers: transfer.bench.ts).
 * Keeps its fixture under /tmp/cellar-bench-fixtures for the next run (see file-fixtures.ts).
 */
export async function filesBench(): Promise<BenchRow[]> {
  const work = mkdtempSync(path.join(tmpdir(), 'cellar-bench-files-'));
  const dataDir = path.join(work, 'data');
  mkdirSync(dataDir);
  const daemon = await startSignedInDaemon(dataDir);
  try {
    return await listingRows(daemon);
  } finally {
    await daemon.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
