import { constants, watch, type FSWatcher } from 'node:fs';
import { open, readdir, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../core/logger.ts';
import { aclMode, groupMode } from './acl.ts';
import { PathBatch } from './path-batch.ts';

/** A share whose new entries are kept to its access ACL. */
export interface KeptShare {
  id: number;
  hostPath: string;
  /** The share's access ACL (shareAcl().access). */
  access: string;
  /** The share's group when its file system refuses ACLs: entries get it and groupMode instead. */
  gid?: number;
}

export interface AclKeeperDeps {
  logger: Logger;
  /** False in development mode: nothing is watched or changed, what would be is logged. */
  apply: boolean;
  /** The old in-share recycle bin, which stays the box's own (see setTreeAcl). */
  trashFolder: string;
  debounceMs?: number;
  maxWaitMs?: number;
}

interface Tree {
  hostPath: string;
  /** Real path of the share folder: every entry changed must resolve under it. */
  root: string;
  access: string;
  gid: number | undefined;
  watchers: Map<string, FSWatcher>;
  batch: PathBatch;
  /** Folders whose event named no entry (the kernel dropped it): their entries are all checked. */
  rescan: Set<string>;
  full: boolean;
  /** The walk that puts a watch on every folder when the share is first kept. */
  walking: Promise<void>;
}

const component = 'file-services';
const openFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * Keeps what SFTP clients create to the share's ACL. A new entry takes its named entries from
 * the folder's default ACL, but the kernel ANDs its mask with the mode the client passed to
 * open() or mkdir() (an upload of a 0644 file gives mask r--), and the owner may chmod later:
 * a user with a read-write grant could then not write it. OpenSSH 9.2's internal-sftp can
 * lower modes (-u) but not raise them, and a wrapper around it would be a second SFTP server
 * to trust, so the daemon watches the trees of shares offering SFTP (inotify via fs.watch, a
 * watch per folder) and gives each new or changed entry the mode its ACL wants.
 *
 * An entry is changed through a descriptor opened with O_NOFOLLOW whose /proc path lies
 * inside the share, with fchmod: a symlink planted by a user, or a folder swapped for one,
 * can never make the daemon change anything outside the share, which a setfacl by path
 * (-P guards only the last component) could not promise, and no process is started per batch.
 * A share whose file system refuses ACLs (group modes, see FileServices) is watched whatever
 * its services: every new entry, made over SMB, SFTP or by the Files app as root, gets the
 * share's group and groupMode.
 *
 * Events are batched (debounce, at most maxWaitMs), an unchanged entry costs one open and
 * fstat, and trees are walked only when their watch starts or a new folder appears. Missed
 * events converge at the next full pass (daemon start, grants change).
 */
export class AclKeeper {
  private readonly trees = new Map<number, Tree>();

  constructor(private readonly deps: AclKeeperDeps) {}

  /** Watches exactly these shares; a share's new ACL applies to the entries created from now on. */
  async keep(shares: readonly KeptShare[]): Promise<void> {
    if (!this.deps.apply) {
      if (shares.length) this.deps.logger.info('would keep the ACLs of new SFTP entries', { component, shares: shares.map((s) => s.hostPath) });
      return;
    }
    const wanted = new Map(shares.map((s) => [s.id, s]));
    for (const [id, tree] of this.trees) {
      const share = wanted.get(id);
      if (!share || share.hostPath !== tree.hostPath) this.stop(id);
      else {
        tree.access = share.access;
        tree.gid = share.gid;
      }
    }
    for (const share of shares) {
      if (this.trees.has(share.id)) continue;
      const root = await realpath(share.hostPath).catch(() => null);
      if (root === null) continue;
      const tree: Tree = {
        hostPath: share.hostPath,
        root,
        access: share.access,
        gid: share.gid,
        watchers: new Map(),
        batch: new PathBatch((paths) => this.handle(share.id, tree, paths), {
          debounceMs: this.deps.debounceMs ?? 100,
          maxWaitMs: this.deps.maxWaitMs ?? 1000,
        }),
        rescan: new Set(),
        full: false,
        walking: Promise.resolve(),
      };
      this.trees.set(share.id, tree);
      // Not waited for: a large tree must not hold up Samba and sshd. The share folder itself
      // is watched before this returns, and each folder before its entries are listed.
      tree.walking = this.watchTree(share.id, tree, root, null).catch((err: unknown) => {
        this.deps.logger.warn('share tree not watched', { component, shareId: share.id, error: String(err) });
      });
    }
  }

  /** Resolves when every event seen so far has been handled (tests, close). */
  async settled(): Promise<void> {
    for (const tree of this.trees.values()) {
      await tree.walking;
      await tree.batch.settled();
    }
  }

  close(): void {
    for (const id of [...this.trees.keys()]) this.stop(id);
  }

  private stop(id: number): void {
    const tree = this.trees.get(id);
    if (!tree) return;
    tree.batch.close();
    for (const w of tree.watchers.values()) w.close();
    this.trees.delete(id);
  }

  private isTrash(tree: Tree, entry: string): boolean {
    const trash = path.join(tree.root, this.deps.trashFolder);
    return entry === trash || entry.startsWith(`${trash}/`);
  }

  /** Watches a folder and every folder below it; with `found`, each entry met is checked too. */
  private async watchTree(id: number, tree: Tree, top: string, found: Set<string> | null): Promise<void> {
    const stack = [top];
    while (stack.length > 0 && this.trees.get(id) === tree) {
      const folder = stack.pop()!;
      if (tree.watchers.has(folder) || !this.watchFolder(id, tree, folder)) continue;
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        const entry = path.join(folder, e.name);
        if (this.isTrash(tree, entry)) continue;
        found?.add(entry);
        if (e.isDirectory()) stack.push(entry);
      }
    }
  }

  private watchFolder(id: number, tree: Tree, folder: string): boolean {
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, { persistent: false });
    } catch (err) {
      // ENOSPC: the inotify watch limit (fs.inotify.max_user_watches) is reached.
      if (!tree.full) this.deps.logger.warn('SFTP entries not kept to the share ACL', { component, shareId: id, folder, error: String(err) });
      tree.full = true;
      return false;
    }
    watcher.on('change', (_type, name) => {
      if (typeof name === 'string' && name.length > 0) tree.batch.add(path.join(folder, name));
      else {
        tree.rescan.add(folder);
        tree.batch.add(folder);
      }
    });
    // The folder went away or moved: its entries are seen again under the new name by the parent's watch.
    watcher.on('error', () => this.unwatch(tree, folder));
    tree.watchers.set(folder, watcher);
    return true;
  }

  private unwatch(tree: Tree, folder: string): void {
    for (const [watched, w] of tree.watchers) {
      if (watched !== folder && !watched.startsWith(`${folder}/`)) continue;
      w.close();
      tree.watchers.delete(watched);
    }
  }

  private async handle(id: number, tree: Tree, paths: string[]): Promise<void> {
    const check = new Set<string>();
    for (const p of paths.sort()) {
      if (tree.rescan.delete(p)) for (const e of await readdir(p).catch(() => [])) check.add(path.join(p, e));
      if (p.startsWith(`${tree.root}/`)) check.add(p);
    }
    let changed = 0;
    for (const entry of check) {
      if (this.isTrash(tree, entry) || this.trees.get(id) !== tree) continue;
      try {
        const kept = await this.keepEntry(tree, entry);
        if (kept?.changed) changed++;
        // A new folder (made, or moved within the share) may already hold entries: watch and check them all.
        if (kept?.folder && !tree.watchers.has(entry)) {
          const found = new Set<string>();
          await this.watchTree(id, tree, entry, found);
          for (const inner of found) if ((await this.keepEntry(tree, inner).catch(() => null))?.changed) changed++;
        }
      } catch (err) {
        this.deps.logger.warn('entry not kept to the share ACL', { component, shareId: id, error: String(err) });
      }
    }
    if (changed > 0) this.deps.logger.debug('share ACL kept on new entries', { component, shareId: id, changed });
  }

  /** Gives one entry the mode its ACL wants; null when it is gone, a link, or not the share's to change. */
  private async keepEntry(tree: Tree, entry: string): Promise<{ folder: boolean; changed: boolean } | null> {
    const handle = await open(entry, openFlags).catch((err: NodeJS.ErrnoException) => {
      // ENOENT: deleted or renamed away (a watch on it is dropped); ELOOP: a symbolic link; ENXIO: a socket.
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') this.unwatch(tree, entry);
      if (['ENOENT', 'ENOTDIR', 'ELOOP', 'ENXIO', 'EOPNOTSUPP'].includes(err.code ?? '')) return null;
      throw err;
    });
    if (!handle) return null;
    try {
      // The path as opened, every component resolved: a folder swapped for a link to elsewhere shows here.
      const real = await readlink(`/proc/self/fd/${handle.fd}`);
      if (!real.startsWith(`${tree.root}/`) || this.isTrash(tree, real)) return null;
      const s = await handle.stat();
      if (!s.isFile() && !s.isDirectory()) return null;
      const folder = s.isDirectory();
      // Set-user-ID and the like are dropped too: nothing in a share runs as its owner.
      const want = tree.gid === undefined ? aclMode(tree.access, { directory: folder, mode: s.mode }) : groupMode({ directory: folder, mode: s.mode });
      const regroup = tree.gid !== undefined && s.gid !== tree.gid;
      if ((s.mode & 0o7777) === want && !regroup) return { folder, changed: false };
      // chown first: it clears set-group-ID, which a folder keeps.
      if (regroup) await handle.chown(-1, tree.gid!);
      await handle.chmod(want);
      return { folder, changed: true };
    } finally {
      await handle.close();
    }
  }
}
