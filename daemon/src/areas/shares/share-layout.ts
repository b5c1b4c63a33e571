import { chmod, chown, mkdir } from 'node:fs/promises';
import path from 'node:path';

/** The share's recycle bin: never listed, never reachable through the file API or the host folder check. */
export const trashFolderName = '.cellar-trash';

/**
 * A dataset share's files live in this folder of its dataset, not in the mount point itself: the
 * share's recycle bin (beside the share root, see the files area's binRoot) then lands on the same
 * dataset, so deleting is a rename, and neither the bin nor the dataset's `.zfs` folder is
 * reachable through the share.
 */
export const shareTreeFolder = 'files';

/** The share root of a dataset mounted at `mountpoint`. */
export function shareRootOf(mountpoint: string): string {
  return path.join(mountpoint, shareTreeFolder);
}

/** The mount point of the dataset holding a dataset share's root. */
export function mountpointOf(shareRoot: string): string {
  return path.dirname(shareRoot);
}

/**
 * Makes the share tree folder in a freshly mounted dataset (kept when it is there, e.g. copied
 * with the dataset) and answers the share root. Mode 0755 like a new dataset's root; the file
 * services put the share's ACLs on it. A home's folder belongs to its user.
 */
export async function makeShareTree(mountpoint: string, owner?: number): Promise<string> {
  const root = shareRootOf(mountpoint);
  await mkdir(root, { mode: 0o755 }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  await chmod(root, 0o755);
  if (owner !== undefined) await chown(root, owner, -1);
  return root;
}
