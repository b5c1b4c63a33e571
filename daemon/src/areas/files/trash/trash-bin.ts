import { randomUUID } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { TrashItemType } from '../../../../../shared/src/api/files/trash.ts';
import { isoAt, type Clock } from '../../../core/clock.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import { chmod, lstat, mkdir, readdir, removeTree, rename, rmdir } from '../../../host/nofollow-fs.ts';
import { daemonFs } from '../../../host/share-fs/daemon-fs.ts';
import { typeOf } from '../file-entry.ts';
import { errno, lstatOrNull, treeBytes, type TreeContext } from '../tree.ts';
import { trashFolderName } from '../../shares/share-layout.ts';
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
 * Where a share's bin lives: `<parent of the share root>/.cellar-trash/<share folder name>`. Beside
 * the share, never inside it: SFTP lists every name in a share's tree and cannot hide one. In the
 * layouts the box makes (a dataset share is the `files` folder of its dataset) the bin is on the
 * share's own file system, so deleting stays a rename. The one rule for the bin's place.
 */
export function binRoot(shareRoot: string): string {
  return path.join(path.dirname(shareRoot), trashFolderName, path.basename(shareRoot));
}

/** Where an item's entry lives in the bin of the share at `shareRoot`. */
export function storedPath(shareRoot: string, row: Pick<TrashRow, 'storedName'>): string {
  return path.join(binRoot(shareRoot), row.storedName);
}

/**
 * A folder of the box's own: made 0700 when missing; a link, a file or a folder somebody else owns
 * planted at the name is refused, never followed or used.
 */
async function privateFolder(folder: string): Promise<void> {
  await mkdir(folder, 0o700).catch((err: unknown) => {
    if (errno(err) !== 'EEXIST') throw err;
  });
  const s = await lstat(folder);
  if (!s.isDirectory() || s.uid !== process.geteuid?.()) throw new ProblemError('fs.trash.unavailable', { reason: 'notOwnFolder' });
  if ((s.mode & 0o077) !== 0) await chmod(folder, 0o700);
}

/** Deleting must stay a rename: a bin on another file system than its share is refused, never filled by copying. */
export async function assertSameDevice(shareRoot: string, bin: string): Promise<void> {
  const [share, own] = await Promise.all([lstat(shareRoot), lstat(bin)]);
  if (share.dev !== own.dev) throw new ProblemError('fs.trash.unavailable', { reason: 'otherDevice' });
}

/**
 * Bins used to live inside the share (`<share>/.cellar-trash`), where SFTP listed their name. Their
 * entries move to the bin beside the share (a rename: the same file system, checked before) under
 * their stored names, so every row still finds its entry; the emptied old folder goes.
 */
async function adoptOldBin(shareRoot: string, bin: string): Promise<void> {
  const old = path.join(shareRoot, trashFolderName);
  const s = await lstatOrNull(daemonFs, old);
  if (!s?.isDirectory()) return;
  for (const name of await readdir(old)) {
    if (await lstatOrNull(daemonFs, path.join(bin, name))) continue;
    await rename(path.join(old, name), path.join(bin, name));
  }
  await rmdir(old).catch(() => undefined);
}

/** The share's bin, made on first use and checked on every use (place, owner, device); old in-share bins are emptied into it. */
export async function ensureBin(shareRoot: string): Promise<string> {
  const bin = binRoot(shareRoot);
  await privateFolder(path.dirname(bin));
  await privateFolder(bin);
  await assertSameDevice(shareRoot, bin);
  await adoptOldBin(shareRoot, bin);
  return bin;
}

/** The real root of a share's folder with its bin made ready (the bin's place follows the real root, as deleting resolves it). */
export async function readyShareBin(hostPath: string): Promise<string> {
  const root = await realpath(hostPath).catch(() => {
    throw new ProblemError('fs.entry.not_found', undefined, { detail: 'The folder of the share is missing on the host' });
  });
  await ensureBin(root);
  return root;
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
    // The bin is the box's own folder, beside the share: the daemon moves into it, in its own identity.
    size: await treeBytes(daemonFs, entry.full, ctx.signal),
    deletedAt: isoAt(deps.clock),
    deletedById: who.userId,
    deletedByName: who.username,
  });
  try {
    ctx.signal.throwIfAborted();
    // Always a rename (the name is fresh, so nothing is replaced): an entry on another mount inside the share is refused, not copied.
    await rename(entry.full, path.join(bin, row.storedName)).catch((err: unknown) => {
      throw errno(err) === 'EXDEV' ? new ProblemError('fs.trash.unavailable', { reason: 'otherDevice' }) : err;
    });
  } catch (err) {
    await row.destroy();
    throw err;
  }
  return row;
}

/** Deletes an item for good: its entry in the bin (links inside are removed, never followed) and its row. */
export async function destroyItem(shareRoot: string, row: TrashRow): Promise<void> {
  await removeTree(storedPath(shareRoot, row));
  await row.destroy();
}
