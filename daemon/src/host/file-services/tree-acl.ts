import { chmodSync, chownSync, closeSync, constants, fstatSync, openSync, readdirSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from '../../core/logger.ts';
import type { CommandRunner } from '../command-runner.ts';
import { at, childPath, errno, oPath, openDir, openDirAt } from '../nofollow-fs.ts';
import { groupMode, type ShareAcl } from './acl.ts';

export interface TreeAclDeps {
  runner: CommandRunner;
  logger: Logger;
  /** The old in-share recycle bin, left out so it stays the box's own (see setTreeAcl). */
  trashFolder: string;
}

/**
 * Entries held for setfacl at once: starting a process costs about a tenth of a second on a busy
 * box, so few runs, yet a command line well below 128 KiB and few enough descriptors open.
 */
const batchSize = 2000;
const timeoutMs = 10 * 60_000;
// O_PATH never opens the object for I/O (a FIFO does not block); with O_NOFOLLOW a link yields the link itself.
const entryFlags = oPath | constants.O_NOFOLLOW;
const folderFlags = oPath | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** Longest stretch the walk keeps the event loop (see statAll in the files listing). */
const sliceMs = 8;

const fdPath = (fd: number, name?: string) => (name === undefined ? `/proc/self/fd/${fd}` : `/proc/self/fd/${fd}/${name}`);

/**
 * Sets a share's ACL on `rel` inside the share ('' for the whole share) and on everything below
 * it: the access ACL on every entry but links, the default ACL on every folder. A share's recycle
 * bin lives beside the share (the files area makes it 0700); a bin left inside the share by an
 * older version (`<share>/.cellar-trash`, taken over on first use) is left out right below the
 * top, so it stays the box's own.
 *
 * find and setfacl look every path up by name, as root: a share user with SFTP who swaps a
 * folder for a link to /etc between the two could have root set the share's ACL on /etc. So
 * the daemon walks the tree itself by descriptors (each entry opened relative to its folder's
 * descriptor with O_NOFOLLOW, links skipped, never followed) and hands setfacl the held
 * descriptors as /proc paths, which reach exactly the opened objects. The walk uses synchronous
 * calls in slices: through the thread pool every call cost a hand-over, a third more time in all.
 */
export async function setTreeAcl(deps: TreeAclDeps, shareRoot: string, rel: string, acl: ShareAcl): Promise<void> {
  if (!deps.runner.apply) {
    deps.logger.debug('would set ACLs', { component: 'file-services', path: path.join(shareRoot, rel), access: acl.access, defaults: acl.defaults });
    return;
  }
  await walkTree(shareRoot, rel, new AclBatch(deps.runner, acl), deps.trashFolder);
}

/**
 * Whether the share folder's file system refuses POSIX ACLs (zfs-fuse answers EOPNOTSUPP). Tried
 * with a named entry for uid 0, which needs no name looked up: setfacl sets an ACL of base entries
 * only as a plain chmod, which would tell nothing. The share-wide pass that follows replaces it.
 * False for a share folder that is a link, which setTreeAcl leaves alone too.
 */
export async function refusesAcls(deps: TreeAclDeps, shareRoot: string): Promise<boolean> {
  if (!deps.runner.apply) return false;
  const top = await openTop(shareRoot, '');
  if (!top) return false;
  try {
    const r = await deps.runner.run(['setfacl', '-m', 'u:0:rwx', '--', childPath(top.fd)], { allowFailure: true, timeoutMs });
    return r.exitCode !== 0 && r.stderr.includes('Operation not supported');
  } finally {
    closeSync(top.fd);
  }
}

/**
 * Gives `rel` inside the share and everything below it the share's group and the group modes
 * (groupMode), for file systems that refuse POSIX ACLs (zfs-fuse). Walked by descriptors as
 * setTreeAcl is, links skipped, the old in-share recycle bin left out; each held entry is
 * changed through its /proc path, which reaches exactly the opened object. The owner is kept.
 */
export async function setTreeModes(deps: TreeAclDeps, shareRoot: string, rel: string, gid: number): Promise<void> {
  if (!deps.runner.apply) {
    deps.logger.debug('would set group modes', { component: 'file-services', path: path.join(shareRoot, rel), gid });
    return;
  }
  await walkTree(shareRoot, rel, new ModeBatch(gid), deps.trashFolder);
}

async function walkTree(shareRoot: string, rel: string, batch: EntryBatch, trashFolder: string): Promise<void> {
  const top = await openTop(shareRoot, rel);
  if (!top) return;
  try {
    await visit(top.fd, top.folder, { batch, slice: performance.now() }, trashFolder);
    await batch.flush();
  } finally {
    batch.discard();
  }
}

/**
 * Adds `entries` (setfacl's -m form) to the one folder at `rel`, by its held descriptor like
 * setTreeAcl; nothing for a link. Holders pass through the folders above theirs this way.
 */
export async function addFolderEntries(deps: TreeAclDeps, shareRoot: string, rel: string, entries: string): Promise<void> {
  if (!deps.runner.apply) {
    deps.logger.debug('would add ACL entries', { component: 'file-services', path: path.join(shareRoot, rel), entries });
    return;
  }
  const top = await openTop(shareRoot, rel);
  if (!top) return;
  try {
    if (top.folder) await deps.runner.run(['setfacl', '-m', entries, '--', childPath(top.fd)], { timeoutMs });
  } finally {
    closeSync(top.fd);
  }
}

/**
 * Opens the top entry without following a link at or below the share folder; null when it is a
 * link (find does not follow one either). The share folder's own parents are the administrator's
 * choice and resolved as they are.
 */
async function openTop(shareRoot: string, rel: string): Promise<{ fd: number; folder: boolean } | null> {
  const segments = [path.basename(shareRoot), ...rel.split('/').filter((s) => s !== '')];
  // openDirAt would take '..' as it comes, out of the share.
  if (segments.slice(1).some((s) => s === '.' || s === '..')) throw new Error(`setTreeAcl needs a path inside the share: ${rel}`);
  let dir = await openDir(await fsp.realpath(path.dirname(shareRoot)));
  try {
    for (const segment of segments.slice(0, -1)) {
      const next = await openDirAt(dir, segment);
      await dir.close();
      dir = next;
    }
    const fd = openSync(at(dir, segments[segments.length - 1] as string), entryFlags);
    const s = statOrClose(fd);
    if (!s.isSymbolicLink()) return { fd, folder: s.isDirectory() };
    closeSync(fd);
    return null;
  } finally {
    await dir.close();
  }
}

/** Where the walk hands each opened entry; it owns the descriptor from then on. */
interface EntryBatch {
  add(fd: number, folder: boolean): Promise<void>;
  flush(): Promise<void>;
  /** Closes what a failed walk left queued. */
  discard(): void;
}

interface Walk {
  batch: EntryBatch;
  /** When the current slice began. */
  slice: number;
}

/** Queues an open entry (the batch owns its descriptor from here) and, for a folder, everything below it. */
async function visit(fd: number, folder: boolean, walk: Walk, trashFolder: string | null): Promise<void> {
  if (!folder) return walk.batch.add(fd, false);
  // A descriptor of its own to list and descend by: the batch closes the entry's when it runs.
  let dir: number;
  try {
    dir = openSync(`${fdPath(fd)}/.`, folderFlags);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  try {
    await walk.batch.add(fd, true);
    for (const name of readdirSync(fdPath(dir))) {
      if (name === trashFolder) continue;
      if (performance.now() - walk.slice > sliceMs) {
        await yieldToLoop();
        walk.slice = performance.now();
      }
      let child: number;
      try {
        child = openSync(fdPath(dir, name), entryFlags);
      } catch (err) {
        // Deleted since the listing: nothing left to set.
        if (errno(err) === 'ENOENT') continue;
        throw err;
      }
      const s = statOrClose(child);
      if (s.isSymbolicLink()) closeSync(child);
      else await visit(child, s.isDirectory(), walk, null);
    }
  } finally {
    closeSync(dir);
  }
}

function statOrClose(fd: number) {
  try {
    return fstatSync(fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** Held entries waiting for setfacl: one run for the files, one for the folders (access and default ACL at once). */
class AclBatch implements EntryBatch {
  private entries: { fd: number; folder: boolean }[] = [];
  private readonly folderAcl: string;

  constructor(
    private readonly runner: CommandRunner,
    private readonly acl: ShareAcl,
  ) {
    this.folderAcl = [acl.access, ...acl.defaults.split(',').map((e) => `d:${e}`)].join(',');
  }

  async add(fd: number, folder: boolean): Promise<void> {
    this.entries.push({ fd, folder });
    if (this.entries.length >= batchSize) await this.flush();
  }

  async flush(): Promise<void> {
    const entries = this.entries.splice(0);
    try {
      const paths = (folder: boolean) => entries.filter((e) => e.folder === folder).map((e) => childPath(e.fd));
      for (const [spec, list] of [
        [this.acl.access, paths(false)],
        [this.folderAcl, paths(true)],
      ] as const) {
        if (list.length > 0) await this.runner.run(['setfacl', '--set', spec, '--', ...list], { timeoutMs });
      }
    } finally {
      for (const e of entries) closeSync(e.fd);
    }
  }

  /** Closes what a failed walk left queued. */
  discard(): void {
    for (const e of this.entries.splice(0)) closeSync(e.fd);
  }
}

/** Entries changed at once: chown and chmod are calls of the daemon itself, no process is started. */
class ModeBatch implements EntryBatch {
  constructor(private readonly gid: number) {}

  async add(fd: number, folder: boolean): Promise<void> {
    try {
      // The /proc path follows to the opened object (never a link: those are skipped); chown
      // first, since it clears set-group-ID on files, which groupMode gives folders only.
      const entry = fdPath(fd);
      const s = fstatSync(fd);
      if (s.gid !== this.gid) chownSync(entry, -1, this.gid);
      const want = groupMode({ directory: folder, mode: s.mode });
      if ((s.mode & 0o7777) !== want || s.gid !== this.gid) chmodSync(entry, want);
    } finally {
      closeSync(fd);
    }
  }

  async flush(): Promise<void> {}

  discard(): void {}
}
