import type { Stats } from 'node:fs';
import path from 'node:path';
import type { SkipReason } from '../../../../shared/src/api/files/operations.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { ShareFs } from '../../host/share-fs/share-fs.ts';
import { assertSameKind, placeCopy, placeFile, placeFolder, type CopyOptions } from './copy-entry.ts';
import { errno, freeName, lstatOrNull, treeBytes, userChildren } from './tree.ts';

/**
 * Moves `src` into `folder` as `name` under the conflict policy; answers where it went, or null
 * when it was left out. Within one file system this is a rename (same inode, links moved as they
 * are); across file systems (EXDEV) it is a copy under the copy rules, then the source is removed
 * except for what the copy left out.
 */
export async function moveInto(src: string, folder: string, name: string, o: CopyOptions): Promise<string | null> {
  o.ctx.signal.throwIfAborted();
  const s = await o.ctx.fs.lstat(src);
  const dest = path.join(folder, name);
  if (dest === src) {
    o.ctx.addBytes(await treeBytes(o.ctx.fs, src));
    return dest;
  }
  const existing = await lstatOrNull(o.ctx.fs, dest);
  if (!existing) return (await relocate(src, s, folder, name, o, false)) ? dest : null;
  switch (o.onConflict) {
    case 'fail':
      throw new ProblemError('fs.entry.exists', { name: o.ctx.relOf(dest) });
    case 'skip':
      o.ctx.report(dest, 'exists');
      o.ctx.addBytes(await treeBytes(o.ctx.fs, src));
      return null;
    case 'rename': {
      const free = await freeName(o.ctx.fs, folder, name, s.isDirectory());
      return (await relocate(src, s, folder, free, o, false)) ? path.join(folder, free) : null;
    }
    case 'overwrite':
      if (s.isDirectory() && existing.isDirectory()) {
        for (const child of await userChildren(o.ctx.fs, src)) await moveInto(path.join(src, child), dest, child, o);
        // Emptied by the merge; anything the box keeps for itself in it (an upload in progress) stays with it.
        await o.ctx.fs.rmdir(src).catch((err: unknown) => {
          if (errno(err) !== 'ENOTEMPTY' && errno(err) !== 'EEXIST') throw err;
        });
        return dest;
      }
      assertSameKind(s, existing, o.ctx.relOf(dest));
      return (await relocate(src, s, folder, name, o, true)) ? dest : null;
  }
}

async function relocate(src: string, s: Stats, folder: string, name: string, o: CopyOptions, replace: boolean): Promise<boolean> {
  const dest = path.join(folder, name);
  const bytes = await treeBytes(o.ctx.fs, src, o.ctx.signal);
  try {
    if (replace) await o.ctx.fs.rename(src, dest);
    else if (s.isDirectory()) await placeFolder(o.ctx.fs, src, dest, o.ctx.relOf(dest));
    else await placeFile(o.ctx.fs, src, dest, false, o.ctx.relOf(dest));
    o.ctx.addBytes(bytes);
    return true;
  } catch (err) {
    if (errno(err) !== 'EXDEV') throw err;
  }
  const skipped: string[] = [];
  const ctx = { ...o.ctx, report: (abs: string, reason: SkipReason) => (skipped.push(abs), o.ctx.report(abs, reason)) };
  const placed = await placeCopy(src, s, folder, name, { ...o, ctx }, replace);
  await removeExcept(o.ctx.fs, src, new Set(skipped));
  return placed;
}

/** Removes a tree except the given entries (and the folders holding them): what a copy left out stays where it was. */
async function removeExcept(fs: ShareFs, abs: string, keep: ReadonlySet<string>): Promise<void> {
  if (keep.has(abs)) return;
  const inside = [...keep].some((k) => k.startsWith(abs + path.sep));
  if (!inside) return fs.removeTree(abs);
  for (const child of await userChildren(fs, abs)) await removeExcept(fs, path.join(abs, child), keep);
}
