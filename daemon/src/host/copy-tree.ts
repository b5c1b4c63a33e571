import {
  closeSync,
  constants,
  fstatSync,
  futimesSync,
  lchownSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import * as fsp from 'node:fs/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from '../core/logger.ts';
import type { CommandRunner } from './command-runner.ts';
import { at, inParent, oPath, openDir } from './nofollow-fs.ts';
import { OwnerAclBatch } from './owner-acl-batch.ts';

export interface CopyTreeDeps {
  /** Runs getfacl and setfacl; in development mode nothing is copied, the copy is logged. */
  runner: CommandRunner;
  logger: Logger;
}

interface Copy {
  batch: OwnerAclBatch;
  signal: AbortSignal | undefined;
  /** Real path of the target folder: hard links are made by walking it from `/`. */
  target: string;
  /** Files with more than one name: device and inode to the path of the first copy, relative to the target. */
  links: Map<string, string>;
  /** When the current slice of synchronous calls began. */
  slice: number;
}

const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const createFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
// O_DIRECTORY refuses a link (O_NOFOLLOW leaves it unfollowed): a folder swapped for one fails the copy.
const folderFlags = oPath | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** Longest stretch the copy keeps the event loop (see statAll in the files listing). */
const sliceMs = 8;
/** Larger files are copied by the kernel through the thread pool, so that the event loop is not held for one file. */
const largeFile = 4 * 1024 * 1024;
/** Small files are read and written in this; it beat copyFileSync's extra calls by half. */
const buffer = Buffer.allocUnsafe(256 * 1024);

const fdPath = (fd: number, name?: string) => (name === undefined ? `/proc/self/fd/${fd}` : `/proc/self/fd/${fd}/${name}`);

/**
 * Copies a folder's contents into another folder with owners, modes, ACLs, times, hard links
 * and symbolic links (as links) kept, as `cp -a from/. to/` did; the target must exist and
 * takes the source folder's own attributes at the end. Sockets, FIFOs and devices are left out:
 * neither SMB nor SFTP can make them, and nothing in a home needs them.
 *
 * cp looked every path up by name as root, so a user who swaps a folder of the source (or of a
 * target inside a share) for a link to elsewhere could have root copy /etc/shadow into the
 * copy, or write into /etc. Here both trees are walked by descriptors, each entry opened
 * relative to its folder's descriptor and never followed; owners, modes and ACLs are carried
 * over by getfacl and setfacl on /proc paths of the held descriptors (OwnerAclBatch). The
 * target is closed (0700) while it fills. Small files are copied with synchronous calls in
 * slices: through the thread pool every call cost a hand-over, many times cp's time on a busy
 * box. A cancel takes effect between files.
 */
export async function copyTree(deps: CopyTreeDeps, from: string, to: string, signal?: AbortSignal): Promise<void> {
  if (!deps.runner.apply) {
    deps.logger.debug('would copy', { component: 'host', from, to });
    return;
  }
  // The two folders are the administrator's or the daemon's (mount points, a new folder): resolved once.
  const target = await fsp.realpath(to);
  const src = await openWalk(await fsp.realpath(from));
  let dst: number;
  try {
    dst = await openWalk(target);
  } catch (err) {
    closeSync(src);
    throw err;
  }
  const copy: Copy = { batch: new OwnerAclBatch(deps.runner), signal, target, links: new Map(), slice: performance.now() };
  try {
    const s = fstatSync(src);
    await fsp.chmod(fdPath(dst), 0o700);
    await copyChildren(copy, src, dst, '');
    utimesSync(fdPath(dst), s.atime, s.mtime);
  } catch (err) {
    closeSync(src);
    closeSync(dst);
    copy.batch.discard();
    throw err;
  }
  try {
    await copy.batch.add(src, dst);
    await copy.batch.flush();
  } finally {
    copy.batch.discard();
  }
}

/** A descriptor of the folder at a real path, walked there by descriptors; the caller closes it. */
async function openWalk(real: string): Promise<number> {
  const handle = await openDir(real);
  try {
    return openSync(`${at(handle)}/.`, folderFlags);
  } finally {
    await handle.close();
  }
}

async function copyChildren(c: Copy, src: number, dst: number, rel: string): Promise<void> {
  for (const name of readdirSync(fdPath(src))) {
    if (performance.now() - c.slice > sliceMs) {
      await yieldToLoop();
      c.slice = performance.now();
    }
    c.signal?.throwIfAborted();
    // Deleted since the listing: nothing to copy.
    const s = lstatSync(fdPath(src, name), { throwIfNoEntry: false });
    const childRel = rel === '' ? name : `${rel}/${name}`;
    if (s?.isSymbolicLink()) {
      symlinkSync(readlinkSync(fdPath(src, name)), fdPath(dst, name));
      lchownSync(fdPath(dst, name), s.uid, s.gid);
      lutimesSync(fdPath(dst, name), s.atime, s.mtime);
    } else if (s?.isFile()) await copyFile(c, src, dst, name, childRel);
    else if (s?.isDirectory()) await copyFolder(c, src, dst, name, childRel);
  }
}

async function copyFolder(c: Copy, src: number, dst: number, name: string, rel: string): Promise<void> {
  const from = openSync(fdPath(src, name), folderFlags);
  let to: number;
  try {
    // Closed until its attributes are set, after its contents.
    mkdirSync(fdPath(dst, name), { mode: 0o700 });
    to = openSync(fdPath(dst, name), folderFlags);
  } catch (err) {
    closeSync(from);
    throw err;
  }
  try {
    await copyChildren(c, from, to, rel);
    const s = fstatSync(from);
    utimesSync(fdPath(to), s.atime, s.mtime);
  } catch (err) {
    closeSync(from);
    closeSync(to);
    throw err;
  }
  await c.batch.add(from, to);
}

async function copyFile(c: Copy, src: number, dst: number, name: string, rel: string): Promise<void> {
  const input = openSync(fdPath(src, name), readFlags);
  let output: number | null = null;
  try {
    const s = fstatSync(input);
    // Swapped for something else since its lstat: a FIFO or device is not read.
    if (!s.isFile()) return closeSync(input);
    const key = `${s.dev}:${s.ino}`;
    const first = s.nlink > 1 ? c.links.get(key) : undefined;
    if (first !== undefined) {
      await inParent(`${c.target}/${first}`, (dir, firstName) => fsp.link(at(dir, firstName), fdPath(dst, name)));
      return closeSync(input);
    }
    output = openSync(fdPath(dst, name), createFlags, 0o600);
    // copyFile reaches the two open files through their descriptors and lets the kernel copy (copy_file_range).
    if (s.size > largeFile) await fsp.copyFile(fdPath(input), fdPath(output));
    else copySmall(input, output);
    futimesSync(output, s.atime, s.mtime);
    if (s.nlink > 1) c.links.set(key, rel);
  } catch (err) {
    closeSync(input);
    if (output !== null) closeSync(output);
    throw err;
  }
  await c.batch.add(input, output);
}

function copySmall(input: number, output: number): void {
  for (let n = readSync(input, buffer); n > 0; n = readSync(input, buffer)) {
    for (let offset = 0; offset < n;) offset += writeSync(output, buffer, offset, n - offset);
  }
}
