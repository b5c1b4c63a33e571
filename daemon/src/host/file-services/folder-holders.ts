import { readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { at, errno, openDir, openDirAt } from '../nofollow-fs.ts';
import { shareAcl, type ShareAcl } from './acl.ts';
import type { FileAccess, FileShare, FileShareUser } from './file-share.ts';
import { addFolderEntries, setTreeAcl, type TreeAclDeps } from './tree-acl.ts';

/** Whether the share-relative `rel` is the folder `folder` or lies below it ('' holds everything). */
export function within(rel: string, folder: string): boolean {
  return folder === '' || rel === folder || rel.startsWith(`${folder}/`);
}

const stronger = (a: FileAccess, b: FileAccess): FileAccess => (a === 'readWrite' || b === 'readWrite' ? 'readWrite' : 'read');

/** One entry per name, the strongest access of its entries (an app mapped twice on nested folders). */
function merged(users: readonly FileShareUser[]): FileShareUser[] {
  const byName = new Map<string, FileAccess>();
  for (const u of users) byName.set(u.username, byName.has(u.username) ? stronger(byName.get(u.username)!, u.access) : u.access);
  return [...byName].map(([username, access]) => ({ username, access }));
}

/** The ACL of an entry at a share-relative path: the share's users and the holders of every folder holding it. */
export function aclAt(share: Pick<FileShare, 'users' | 'folders'>, rel: string): ShareAcl {
  const holders = (share.folders ?? []).filter((h) => within(rel, h.path));
  return shareAcl({ users: merged([...share.users, ...holders]) });
}

export interface HolderPlan {
  /** Folders whose trees get their own ACL, shallow ones first so that deeper ones (holding more) come last. */
  trees: { path: string; acl: ShareAcl }[];
  /** Folders above held ones: only search (`--x`) for the holders that pass through, added to the share's ACL. */
  passages: { path: string; entries: string }[];
}

const depth = (rel: string) => (rel === '' ? 0 : rel.split('/').length);

function ancestors(rel: string): string[] {
  const segments = rel === '' ? [] : rel.split('/');
  return segments.map((_, i) => segments.slice(0, i).join('/'));
}

/**
 * What the folder holders of a share add to the share-wide ACL pass. A holder never gets more
 * than search on the folders above its own: it can pass through them to its folder, not list
 * them nor open anything else in them (their entries carry no entry for it). A folder above that
 * the same holder holds anyway (nested mappings) keeps its full entry.
 */
export function holderPlan(share: Pick<FileShare, 'users' | 'folders'>): HolderPlan {
  const holders = share.folders ?? [];
  const folders = [...new Set(holders.map((h) => h.path))].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
  const passing = new Map<string, Set<string>>();
  for (const h of holders) {
    for (const above of ancestors(h.path)) {
      if (holders.some((o) => o.username === h.username && within(above, o.path))) continue;
      if (!passing.has(above)) passing.set(above, new Set());
      passing.get(above)!.add(h.username);
    }
  }
  return {
    trees: folders.map((folder) => ({ path: folder, acl: aclAt(share, folder) })),
    passages: [...passing]
      .sort(([a], [b]) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0))
      .map(([folder, names]) => ({
        path: folder,
        entries: [...names]
          .sort()
          .map((n) => `u:${n}:--x`)
          .join(','),
      })),
  };
}

/**
 * The real path of a held folder, walked from the share's real folder one component at a time
 * by descriptors without following links: a folder swapped for a link since it was mapped is
 * refused (null), never followed out of the share. Null too when it is gone.
 */
export async function heldFolderPath(hostPath: string, rel: string): Promise<string | null> {
  const root = await realpath(hostPath).catch(() => null);
  if (root === null) return null;
  const top = await openDir(root).catch(() => null);
  if (!top) return null;
  let dir: FileHandle = top;
  try {
    for (const segment of rel === '' ? [] : rel.split('/')) {
      const next: FileHandle | null = await openDirAt(dir, segment).catch(() => null);
      await dir.close();
      if (!next) return null;
      dir = next;
    }
    const real = await readlink(at(dir));
    return real === root || real.startsWith(`${root}/`) ? real : null;
  } finally {
    await dir.close().catch(() => undefined);
  }
}

/**
 * Gives a share's folder holders their entries after the share-wide pass, walking by descriptors
 * as that pass does; with `inside`, only what lies at or below that share-relative path (entries
 * that arrived there). Folders that cannot be reached are reported and left out.
 */
export async function applyHolders(
  deps: TreeAclDeps,
  share: Pick<FileShare, 'hostPath' | 'users' | 'folders'>,
  missing: (rel: string) => void,
  inside = '',
): Promise<void> {
  const plan = holderPlan(share);
  const reached = (work: Promise<void>, rel: string) =>
    work.catch((err: unknown) => {
      if (!['ENOENT', 'ENOTDIR', 'ELOOP'].includes(errno(err) ?? '')) throw err;
      missing(rel);
    });
  for (const tree of plan.trees.filter((t) => within(t.path, inside))) await reached(setTreeAcl(deps, share.hostPath, tree.path, tree.acl), tree.path);
  for (const passage of plan.passages.filter((p) => within(p.path, inside))) {
    await reached(addFolderEntries(deps, share.hostPath, passage.path, passage.entries), passage.path);
  }
}

/** The share-relative path of an entry given by its full path under the share's folder. */
export function relativeTo(hostPath: string, full: string): string {
  return path.relative(hostPath, full).split(path.sep).join('/');
}
