import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { FileEntry } from '../../../../shared/src/api/files/files.ts';
import type { GrantLevel } from '../../../../shared/src/api/shares/shares.ts';
import { topics } from '../../../../shared/src/topics.ts';
import type { Logger } from '../../core/logger.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { lstat, readdir } from '../../host/nofollow-fs.ts';
import type { TopicProvider, TopicPublisher } from '../../core/topics/topic-provider.ts';
import { entryOf, targetStat } from './file-entry.ts';
import { assertExists, assertFollowable, isReservedName, resolveInShare } from './safe-path.ts';

export interface FolderWatchDeps {
  shareFolder(principal: Principal, shareId: number, need: GrantLevel): Promise<string>;
  mayRead(principal: Principal, shareId: number): Promise<boolean>;
  publisher: TopicPublisher;
  /** Sockets still holding a topic; a watcher without any is closed by the sweep. */
  listenerCount(topic: string): number;
  /** A change seen in a watched folder (its real path): drops its listing snapshots at once. */
  folderChanged?(folder: string): void;
  logger: Logger;
  debounceMs?: number;
  sweepMs?: number;
}

interface Watch {
  watcher: FSWatcher;
  root: string;
  rel: string;
  /** Names touched since the last flush. */
  dirty: Set<string>;
  timer: NodeJS.Timeout | undefined;
  /** Inode of each name seen in this folder, to pair a deletion and a creation into a rename. */
  inodes: Map<string, bigint>;
}

const maxWatches = 1000;
/** Folders up to this size get their inodes indexed at start, so renames of older entries are recognised. */
const maxIndexed = 5000;

function parseTopic(topic: string): { shareId: number; rel: string } {
  const m = /^files\/(\d+)(?:\/(.+))?$/.exec(topic);
  if (!m) throw new ProblemError('fs.path.invalid', { reason: 'topic' });
  return { shareId: Number(m[1]), rel: m[2] ?? '' };
}

/**
 * Live folder topics (`files/<shareId>/<path>`): the folder is watched with fs.watch while
 * somebody holds its topic, so changes from SMB, SFTP or a shell show up as well. Events are
 * gathered for a moment and then checked against the disk: created, changed, deleted, or
 * renamed when a vanished name's inode reappears under a new name.
 */
export class FolderWatches implements TopicProvider {
  readonly pattern = topics.folder.pattern;
  private readonly watches = new Map<string, Watch>();
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(private readonly deps: FolderWatchDeps) {
    this.sweepTimer = setInterval(() => this.sweep(), deps.sweepMs ?? 30_000);
    this.sweepTimer.unref();
  }

  async subscribe(principal: Principal, topic: string): Promise<undefined> {
    const { shareId, rel } = parseTopic(topic);
    const root = await this.deps.shareFolder(principal, shareId, 'read');
    const r = await resolveInShare(root, rel);
    assertExists(r);
    assertFollowable(r);
    const kind = r.link === 'inside' ? await targetStat(r.link, r.target) : r.stat;
    if (!kind?.isDirectory()) throw new ProblemError('fs.entry.not_folder');
    if (!this.watches.has(topic)) this.start(topic, r.target, r.root, r.rel);
    return undefined;
  }

  async mayRead(principal: Principal, topic: string): Promise<boolean> {
    return this.deps.mayRead(principal, parseTopic(topic).shareId);
  }

  close(): void {
    clearInterval(this.sweepTimer);
    for (const topic of [...this.watches.keys()]) this.stop(topic);
  }

  private start(topic: string, folder: string, root: string, rel: string): void {
    if (this.watches.size >= maxWatches) this.stop(this.watches.keys().next().value as string);
    const watcher = watch(folder, { persistent: false });
    const w: Watch = { watcher, root, rel, dirty: new Set(), timer: undefined, inodes: new Map() };
    watcher.on('change', (_type, name) => {
      if (typeof name !== 'string' || isReservedName(name)) return;
      w.dirty.add(name);
      this.deps.folderChanged?.(folder);
      w.timer ??= setTimeout(
        () =>
          void this.flush(topic, w).catch((err: unknown) =>
            this.deps.logger.warn('folder changes not sent', { component: 'files', topic, error: err instanceof Error ? err.message : String(err) }),
          ),
        this.deps.debounceMs ?? 100,
      );
    });
    // The folder itself went away (deleted or moved): the topic has nothing left to tell.
    watcher.on('error', () => this.stop(topic));
    this.watches.set(topic, w);
    void this.index(folder, w).catch((err: unknown) =>
      this.deps.logger.warn('folder not indexed', { component: 'files', topic, error: err instanceof Error ? err.message : String(err) }),
    );
    this.deps.logger.debug('folder watch started', { component: 'files', topic });
  }

  private stop(topic: string): void {
    const w = this.watches.get(topic);
    if (!w) return;
    clearTimeout(w.timer);
    w.watcher.close();
    this.watches.delete(topic);
    this.deps.logger.debug('folder watch stopped', { component: 'files', topic });
  }

  private sweep(): void {
    for (const topic of [...this.watches.keys()]) if (this.deps.listenerCount(topic) === 0) this.stop(topic);
  }

  private async flush(topic: string, w: Watch): Promise<void> {
    w.timer = undefined;
    const names = [...w.dirty];
    w.dirty.clear();
    const present: { name: string; entry: FileEntry; ino: bigint; known: boolean }[] = [];
    const gone: { name: string; ino: bigint | undefined }[] = [];
    for (const name of names) {
      const rel = w.rel === '' ? name : `${w.rel}/${name}`;
      const r = await resolveInShare(w.root, rel).catch(() => null);
      if (!r?.stat) {
        gone.push({ name, ino: w.inodes.get(name) });
        w.inodes.delete(name);
        continue;
      }
      const known = w.inodes.has(name);
      present.push({ name, entry: entryOf(rel, name, r.stat, r.link, await targetStat(r.link, r.target)), ino: r.stat.ino, known });
      w.inodes.set(name, r.stat.ino);
    }
    for (const p of present) {
      const from = gone.find((g) => g.ino !== undefined && g.ino === p.ino);
      if (from) {
        gone.splice(gone.indexOf(from), 1);
        this.deps.publisher.publish(topic, 'renamed', { name: p.name, oldName: from.name, entry: p.entry });
      } else this.deps.publisher.publish(topic, p.known ? 'changed' : 'created', { name: p.name, entry: p.entry });
    }
    for (const g of gone) this.deps.publisher.publish(topic, 'deleted', { name: g.name, entry: null });
  }

  private async index(folder: string, w: Watch): Promise<void> {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names.slice(0, maxIndexed)) {
      if (isReservedName(name) || w.inodes.has(name)) continue;
      const s = await lstat(path.join(folder, name), { bigint: true }).catch(() => null);
      if (s) w.inodes.set(name, s.ino);
    }
  }
}
