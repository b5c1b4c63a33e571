import type { BigIntStats, Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/**
 * File system calls on share paths, in one of two identities: the daemon's own (`daemonFs`), or
 * a share user's, through a worker process that runs with the user's uid, gid and groups
 * (`UserFsPool`). Both walk every path by descriptors without following links (nofollow-fs.ts);
 * the user's identity is the second wall behind that walk: a case the walk or the share checks
 * missed still reaches only what the kernel lets that user reach, as over SFTP.
 */

/** A folder held open by its descriptor (in this process or in a user's worker). */
export interface Folder {
  readonly kind: 'folder';
}

/** An entry named inside a held folder: reached relative to its descriptor, never looked up by path again. */
export interface At {
  readonly folder: Folder;
  /** Absent: the folder itself. */
  readonly name?: string;
}

/** A real absolute path (walked from `/` without following links) or an entry of a held folder. */
export type Entry = string | At;

export function at(folder: Folder, name?: string): At {
  return { folder, name };
}

export interface ShareFs {
  /** Who the calls run as: 'daemon', or the user name of the worker. */
  readonly identity: string;
  withDir<T>(abs: string, fn: (dir: Folder) => Promise<T>): Promise<T>;
  /** Runs `fn` with the folder of `abs` held and the last component's name. */
  inParent<T>(abs: string, fn: (dir: Folder, name: string) => Promise<T>): Promise<T>;
  lstat(e: Entry): Promise<Stats>;
  lstatBig(e: Entry): Promise<BigIntStats>;
  /** open(2) with O_NOFOLLOW always added; the handle is this process's own to read and write. */
  open(e: Entry, flags: number, mode?: number): Promise<FileHandle>;
  readdir(e: Entry): Promise<string[]>;
  readlink(e: Entry): Promise<string>;
  mkdir(e: Entry, mode?: number): Promise<void>;
  rmdir(e: Entry): Promise<void>;
  unlink(e: Entry): Promise<void>;
  symlink(text: string, e: Entry): Promise<void>;
  lutimes(e: Entry, atime: Date, mtime: Date): Promise<void>;
  chmod(e: Entry, mode: number): Promise<void>;
  rename(from: Entry, to: Entry): Promise<void>;
  link(from: Entry, to: Entry): Promise<void>;
  /** rm -rf that descends by descriptors; an absent entry is no error. */
  removeTree(e: Entry): Promise<void>;
  /** fsync of a folder, so the names just made in it are durable. */
  syncFolder(e: Entry): Promise<void>;
}

/** The file system calls of a share operation, in the identity of the user it runs for (null: the box's own work, as the daemon). */
export type ShareFsFor = (userId: number | null) => Promise<ShareFs>;
