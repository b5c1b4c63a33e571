import { randomUUID } from 'node:crypto';
import { lstat, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TrashItemType } from '../../../../../shared/src/api/trash.ts';
import { isoAt, type Clock } from '../../../core/clock.ts';
import { typeOf } from '../file-entry.ts';
import { moveInto } from '../operations/move-entry.ts';
import { errno, treeBytes, type TreeContext } from '../operations/tree.ts';
import { trashFolderName } from '../safe-path.ts';
import type { TrashRow } from './trash.model.ts';

export interface Deleter {
  userId: number | null;
  username: string;
}

export interface BinDeps {
  rows: typeof TrashRow;
  clock: Clock;
}

/**
 * The share's bin folder, made on first use. Mode 0700: only the daemon reads it (SMB vetoes it,
 * the file API refuses its name). A link or file planted under the name is refused, never followed.
 */
export async function ensureBin(root: string): Promise<string> {
  const bin = path.join(root, trashFolderName);
  await mkdir(bin, { mode: 0o700 }).catch((err: unknown) => {
    if (errno(err) !== 'EEXIST') throw err;
  });
  if (!(await lstat(bin)).isDirectory()) throw new Error(`${trashFolderName} of a share is not a folder`);
  return bin;
}

/** Where an item's entry lives in the bin. */
export function storedPath(root: string, row: Pick<TrashRow, 'storedName'>): string {
  return path.join(root, trashFolderName, row.storedName);
}

/**
 * Moves an entry into the share's bin under a fresh unique name and records it. The row comes
 * first, so an entry in the bin always has one; a failed move removes the row again.
 */
export async function moveIntoBin(
  deps: BinDeps,
  share: { id: number; root: string },
  entry: { full: string; rel: string },
  who: Deleter,
  ctx: TreeContext,
): Promise<TrashRow> {
  const bin = await ensureBin(share.root);
  const type: TrashItemType = typeOf(await lstat(entry.full, { bigint: true }));
  const row = await deps.rows.create({
    shareId: share.id,
    storedName: randomUUID(),
    originalPath: entry.rel,
    type,
    size: await treeBytes(entry.full, ctx.signal),
    deletedAt: isoAt(deps.clock),
    deletedById: who.userId,
    deletedByName: who.username,
  });
  try {
    // A rename within the share's file system; an entry on another mount inside the share is copied over.
    await moveInto(entry.full, bin, row.storedName, { ctx, onConflict: 'fail', targetRoot: share.root });
  } catch (err) {
    await row.destroy();
    throw err;
  }
  return row;
}

/** Deletes an item for good: its entry in the bin (links inside are removed, never followed) and its row. */
export async function destroyItem(root: string, row: TrashRow): Promise<void> {
  await rm(storedPath(root, row), { recursive: true, force: true });
  await row.destroy();
}
