import * as fsp from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from '../../core/logger.ts';
import { at, lstat, removeTree, withDir } from '../../host/nofollow-fs.ts';
import { treeBytes } from './tree.ts';
import { isOwnTemporary, uploadTempPrefix } from './safe-path.ts';
import { daemonFs } from '../../host/share-fs/daemon-fs.ts';

export const temporariesSweepTask = 'files.temporaries.sweep';
export const temporariesSweepIntervalMs = 24 * 3600_000;
/** One of our own that nobody wrote for a day is a leftover too (a live one is written all the time). */
const ownStaleMs = 24 * 3600_000;

export interface SweepDeps {
  logger: Logger;
  /** The folders of every share. */
  roots(): Promise<string[]>;
  now(): number;
}

interface Found {
  count: number;
  bytes: number;
}

async function leftover(full: string, name: string, now: number): Promise<boolean> {
  if (!name.startsWith(uploadTempPrefix)) return false;
  if (!isOwnTemporary(name)) return true;
  // By descriptors too: a folder on the way swapped for a link must not lend an outside file's age.
  const s = await lstat(full).catch(() => null);
  return s !== null && now - s.mtimeMs > ownStaleMs;
}

/** Walks a share's tree by descriptors (links never followed) and removes the temporaries no live upload or copy owns. */
async function sweepFolder(folder: string, deps: SweepDeps, found: Found, signal: AbortSignal): Promise<void> {
  const entries = await withDir(folder, (dir) => fsp.readdir(at(dir), { withFileTypes: true })).catch(() => []);
  for (const entry of entries) {
    signal.throwIfAborted();
    const full = path.join(folder, entry.name);
    if (await leftover(full, entry.name, deps.now())) {
      const bytes = await treeBytes(daemonFs, full).catch(() => 0);
      await removeTree(full);
      found.count++;
      found.bytes += bytes;
    } else if (entry.isDirectory()) {
      await sweepFolder(full, deps, found, signal);
    }
    // A share of 100,000 entries must not hold other requests up.
    if (found.count % 64 === 0) await yieldToLoop();
  }
}

/** At start and daily: every share's leftover temporaries go; one unreadable share does not stop the others. */
export async function sweepTemporaries(deps: SweepDeps, signal: AbortSignal): Promise<Found> {
  const found: Found = { count: 0, bytes: 0 };
  for (const root of await deps.roots()) {
    await sweepFolder(root, deps, found, signal).catch((err: unknown) => {
      if (signal.aborted) throw err;
      deps.logger.warn('temporaries not swept', { component: 'files', root, error: err instanceof Error ? err.message : String(err) });
    });
  }
  if (found.count > 0) deps.logger.info('leftover temporaries removed', { component: 'files', count: found.count, bytes: found.bytes });
  return found;
}
