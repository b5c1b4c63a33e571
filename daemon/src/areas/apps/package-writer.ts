import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { link, mkdir, open, symlink } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { ReadEntry } from 'tar';
import { ProblemError } from '../../core/problem-error.ts';

const refuse = (entry: string, reason: string) => new ProblemError('app.package.entry_refused', { entry, reason });

/** Never through a link, never onto something that exists: only what this writer made is below its root. */
const newFileFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/** Files up to this size are written at once from memory: a stream per file costs more than its bytes (20,000 tiny files). */
const smallFileBytes = 64 * 1024;
/** Kernel's own limit of links followed in one lookup; a package's chain past it is a loop. */
const maxLinkHops = 40;

/** The package's modes without set-id bits (refused earlier) or group and world write; the box always reads and writes its copy. */
const fileMode = (mode: number | undefined) => ((mode ?? 0o644) & 0o755) | 0o600;
const folderMode = (mode: number | undefined) => ((mode ?? 0o755) & 0o755) | 0o700;

/**
 * A small file in three quick calls on the event loop: through the thread pool each file cost
 * about 0.6 ms (20,000 tiny files, the entry limit, took 12 s more), this way a few microseconds.
 */
function writeSmallFile(full: string, data: Buffer, mode: number): void {
  const fd = openSync(full, newFileFlags, mode);
  try {
    writeSync(fd, data);
  } finally {
    closeSync(fd);
  }
}

/**
 * Follows the symbolic link `name` the way the kernel will, through the package's other links,
 * and says whether it stays inside the package. The header check sees each target alone, and
 * `a/b/..` is `a` to it even when `a/b` is itself a link to `..`; this walk sees the links.
 */
function staysInside(links: ReadonlyMap<string, string>, name: string): boolean {
  const at = name.split('/').slice(0, -1);
  let rest = (links.get(name) ?? '').split('/');
  let hops = 0;
  while (rest.length > 0) {
    const part = rest.shift() as string;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (at.length === 0) return false;
      at.pop();
      continue;
    }
    at.push(part);
    const target = links.get(at.join('/'));
    if (target === undefined) continue;
    if (++hops > maxLinkHops || target.startsWith('/')) return false;
    at.pop();
    rest = [...target.split('/'), ...rest];
  }
  return true;
}

/**
 * Writes entries that passed the header check into an empty private folder, as they pass by, in
 * one pass with the check (no second reader of the archive, so no header that the check reads one
 * way and an extractor another). What each name became is kept: an entry below a link or a file
 * is refused, files are created new without following links, and symbolic links are made only
 * once every entry is written and the whole set of links is known, so nothing is ever written
 * through one and each is followed through the others before it exists.
 */
export class PackageWriter {
  private readonly made = new Map<string, 'folder' | 'file' | 'link'>();
  private readonly links = new Map<string, string>();
  /** The entry being written and its file, for abort(). */
  private current: { entry: ReadEntry; out?: { destroy(): void } } | null = null;
  private aborted = false;

  constructor(private readonly root: string) {}

  /** Writes one checked entry (`name` and a hard link's `linkTarget` as the check normalised them) and consumes its body. */
  async write(entry: ReadEntry, name: string, linkTarget: string | null): Promise<void> {
    this.current = { entry };
    try {
      await this.parents(name);
      const full = path.join(this.root, name);
      if (entry.type === 'Directory') {
        const was = this.made.get(name);
        if (was === 'folder') return;
        if (was) throw refuse(name, 'duplicate');
        this.made.set(name, 'folder');
        await mkdir(full, { mode: folderMode(entry.mode) });
        return;
      }
      if (this.made.has(name)) throw refuse(name, 'duplicate');
      if (entry.type === 'SymbolicLink') {
        this.made.set(name, 'link');
        this.links.set(name, entry.linkpath ?? '');
      } else if (entry.type === 'Link') {
        this.made.set(name, 'file');
        // Checked to name an earlier regular file of this package, which is where it is: no link exists yet.
        await link(path.join(this.root, linkTarget ?? ''), full);
      } else if (entry.size <= smallFileBytes) {
        this.made.set(name, 'file');
        // A body destroyed before anyone waits for it would never settle the wait.
        if (this.aborted) throw new Error('the upload failed');
        writeSmallFile(full, await entry.concat(), fileMode(entry.mode));
      } else {
        this.made.set(name, 'file');
        const out = (await open(full, newFileFlags, fileMode(entry.mode))).createWriteStream();
        this.current.out = out;
        if (this.aborted) out.destroy();
        entry.pipe(out);
        await finished(out);
      }
    } finally {
      this.current = null;
      // A body nobody took would hold the parser, and the upload with it.
      entry.resume();
    }
  }

  /**
   * The upload failed while an entry was being written: its body will never end, so the write is
   * given up (its file closed) rather than waited for.
   */
  abort(): void {
    this.aborted = true;
    this.current?.out?.destroy();
    this.current?.entry.destroy();
  }

  /** Makes the symbolic links, each followed through all the others first. */
  async finish(): Promise<void> {
    for (const [name, target] of this.links) {
      if (!staysInside(this.links, name)) throw refuse(name, 'linkOutside');
      await symlink(target, path.join(this.root, name));
    }
  }

  /** The folders above `name`, made where the package names none; an entry below a file or a link is refused. */
  private async parents(name: string): Promise<void> {
    const segments = name.split('/');
    for (let i = 1; i < segments.length; i++) {
      const parent = segments.slice(0, i).join('/');
      const was = this.made.get(parent);
      if (was === 'folder') continue;
      if (was === 'link') throw refuse(name, 'linkOutside');
      if (was === 'file') throw refuse(name, 'duplicate');
      this.made.set(parent, 'folder');
      await mkdir(path.join(this.root, parent), { mode: 0o755 });
    }
  }
}
