import { constants, type Stats } from 'node:fs';
import path from 'node:path';
import type { OnConflict } from '../../../../shared/src/api/files/operations.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { at, type ShareFs } from '../../host/share-fs/share-fs.ts';
import { errno, freeName, linkLeadsInside, lstatOrNull, tempPath, treeBytes, userChildren, type TreeContext } from './tree.ts';

export interface CopyOptions {
  ctx: TreeContext;
  onConflict: OnConflict;
  /** Real path of the target share: a link is copied only when it leads inside it. */
  targetRoot: string;
}

const chunkBytes = 1024 * 1024;

/**
 * Copies `src` into `folder` as `name` under the conflict policy. Answers where it went, or
 * null when it was left out. Overwrite merges a folder into an existing folder entry by entry
 * and replaces files; a file never replaces a folder nor the other way round.
 */
export async function copyInto(src: string, folder: string, name: string, o: CopyOptions): Promise<string | null> {
  o.ctx.signal.throwIfAborted();
  const s = await o.ctx.fs.lstat(src);
  const dest = path.join(folder, name);
  const existing = await lstatOrNull(o.ctx.fs, dest);
  if (!existing) return (await placeCopy(src, s, folder, name, o, false)) ? dest : null;
  switch (o.onConflict) {
    case 'fail':
      throw new ProblemError('fs.entry.exists', { name: o.ctx.relOf(dest) });
    case 'skip':
      o.ctx.report(dest, 'exists');
      o.ctx.addBytes(await treeBytes(o.ctx.fs, src, o.ctx.signal));
      return null;
    case 'rename': {
      const free = await freeName(o.ctx.fs, folder, name, s.isDirectory());
      return (await placeCopy(src, s, folder, free, o, false)) ? path.join(folder, free) : null;
    }
    case 'overwrite':
      if (s.isDirectory() && existing.isDirectory()) {
        for (const child of await userChildren(o.ctx.fs, src)) await copyInto(path.join(src, child), dest, child, o);
        return dest;
      }
      assertSameKind(s, existing, o.ctx.relOf(dest));
      return (await placeCopy(src, s, folder, name, o, true)) ? dest : null;
  }
}

/** Overwrite replaces like with like: a folder is merged, never swapped for a file (or a file for a folder). */
export function assertSameKind(src: Stats, existing: Stats, rel: string): void {
  if (existing.isDirectory()) throw new ProblemError('fs.entry.is_folder', { path: rel });
  if (src.isDirectory()) throw new ProblemError('fs.entry.not_folder', { path: rel });
}

/**
 * Puts a copy of `src` at folder/name. Everything is written under a hidden temporary name in the
 * same folder and renamed into place once complete (a folder with its whole tree), so no partial
 * entry is ever visible; a failure or a cancel removes the temporary entry. Without `replace` the
 * name is never taken from an entry that appeared meanwhile. Answers false when it was left out.
 */
export async function placeCopy(src: string, s: Stats, folder: string, name: string, o: CopyOptions, replace: boolean): Promise<boolean> {
  const dest = path.join(folder, name);
  if (!s.isFile() && !s.isDirectory() && !s.isSymbolicLink()) {
    o.ctx.report(src, 'special');
    return false;
  }
  if (s.isSymbolicLink() && !(await linkLeadsInside(folder, await o.ctx.fs.readlink(src), o.targetRoot))) {
    o.ctx.report(src, 'linkOutside');
    return false;
  }
  const temp = tempPath(folder);
  // The folder is held by its descriptor for the cleanup: removing the temporary by its path fails
  // while a share user has the folder's name swapped for a link, and would leave it behind.
  await o.ctx.fs.withDir(folder, async (dir) => {
    try {
      const links: PendingLink[] = [];
      await copyFresh(src, s, temp, o, links);
      // Links last, once every file and folder they may point at exists.
      for (const l of links) await copyLink(l, o);
      if (s.isDirectory()) await placeFolder(o.ctx.fs, temp, dest, o.ctx.relOf(dest));
      else await placeFile(o.ctx.fs, temp, dest, replace, o.ctx.relOf(dest));
    } catch (err) {
      await o.ctx.fs.removeTree(at(dir, path.basename(temp)));
      throw err;
    }
  });
  return true;
}

interface PendingLink {
  src: string;
  dest: string;
}

/** Copies a tree to `dest`, which does not exist and is hidden (inside or as a temporary name). Links are collected, not made. */
async function copyFresh(src: string, s: Stats, dest: string, o: CopyOptions, links: PendingLink[]): Promise<void> {
  o.ctx.signal.throwIfAborted();
  if (s.isFile()) return copyFile(src, s, dest, o.ctx);
  if (s.isSymbolicLink()) {
    links.push({ src, dest });
    return;
  }
  if (!s.isDirectory()) {
    o.ctx.report(src, 'special');
    return;
  }
  // Made as a new folder is: the target's default ACL (or the umask) decides, not the source's mode,
  // which would narrow the ACL mask and take the target share's grants away from the copy.
  await o.ctx.fs.mkdir(dest, 0o777);
  for (const child of await userChildren(o.ctx.fs, src)) {
    const from = path.join(src, child);
    await copyFresh(from, await o.ctx.fs.lstat(from), path.join(dest, child), o, links);
  }
  await o.ctx.fs.lutimes(dest, s.atime, s.mtime);
}

async function copyLink(l: PendingLink, o: CopyOptions): Promise<void> {
  const text = await o.ctx.fs.readlink(l.src);
  // The temporary folder is a sibling of the final one, so a link resolves from it as it will from its place.
  if (!(await linkLeadsInside(path.dirname(l.dest), text, o.targetRoot))) return o.ctx.report(l.src, 'linkOutside');
  await o.ctx.fs.symlink(text, l.dest);
}

/** Copies one file chunk by chunk with byte progress; the read never follows a link (nor blocks on a swapped-in FIFO), the write never reuses an existing name. */
async function copyFile(src: string, s: Stats, dest: string, ctx: TreeContext): Promise<void> {
  const input = await ctx.fs.open(src, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    // As an upload is made: the target decides the mode; only whether it is executable comes from the source.
    const output = await ctx.fs.open(dest, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, s.mode & 0o111 ? 0o777 : 0o666);
    try {
      const buffer = Buffer.allocUnsafe(chunkBytes);
      for (;;) {
        // Checked between chunks: a cancel stops the copy within one chunk.
        ctx.signal.throwIfAborted();
        const { bytesRead } = await input.read(buffer, 0, chunkBytes, null);
        if (bytesRead === 0) break;
        for (let offset = 0; offset < bytesRead;) offset += (await output.write(buffer, offset, bytesRead - offset)).bytesWritten;
        ctx.addBytes(bytesRead);
      }
      await output.utimes(s.atime, s.mtime);
    } catch (err) {
      await ctx.fs.unlink(dest).catch(() => undefined);
      throw err;
    } finally {
      await output.close();
    }
  } finally {
    await input.close();
  }
}

/** Gives a finished file (or link) its name: replacing atomically, or taking the name only when free. */
export async function placeFile(fs: ShareFs, from: string, dest: string, replace: boolean, rel: string): Promise<void> {
  if (replace) {
    await fs.rename(from, dest).catch((err: unknown) => {
      throw errno(err) === 'EISDIR' || errno(err) === 'ENOTEMPTY' ? new ProblemError('fs.entry.is_folder', { path: rel }) : err;
    });
    return;
  }
  // link() fails atomically with EEXIST when the name was taken meanwhile.
  const linked = await fs.link(from, dest).then(
    () => true,
    (err: unknown) => {
      if (errno(err) === 'EEXIST') throw new ProblemError('fs.entry.exists', { name: rel });
      // File systems without hard links get the checked rename.
      if (errno(err) === 'EPERM' || errno(err) === 'ENOTSUP' || errno(err) === 'EOPNOTSUPP') return false;
      throw err;
    },
  );
  if (linked) await fs.unlink(from);
  else await placeFolder(fs, from, dest, rel);
}

/**
 * Gives a finished folder its name when free. Node lacks renameat2(RENAME_NOREPLACE): the name is
 * checked, then renamed; rename() itself refuses a non-empty folder or a file in the way.
 */
export async function placeFolder(fs: ShareFs, from: string, dest: string, rel: string): Promise<void> {
  if (await lstatOrNull(fs, dest)) throw new ProblemError('fs.entry.exists', { name: rel });
  await fs.rename(from, dest).catch((err: unknown) => {
    throw ['EEXIST', 'ENOTEMPTY', 'ENOTDIR', 'EISDIR'].includes(errno(err) ?? '') ? new ProblemError('fs.entry.exists', { name: rel }) : err;
  });
}
