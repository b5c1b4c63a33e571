import { fork, type ChildProcess } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ProblemError } from '../../core/problem-error.ts';
import type { At, Entry, Folder, ShareFs } from './share-fs.ts';
import {
  bigStatsFromWire,
  errorFromWire,
  identityEnv,
  statsFromWire,
  type WireEntry,
  type WireRequest,
  type WireResponse,
  type WorkerIdentity,
  type WorkerReady,
} from './user-fs-protocol.ts';

/**
 * The worker's source beside this file under tsx (with tsx's loader named by its full address,
 * since the worker starts in `/`); in the bundle, the entry esbuild wrote beside main.js.
 */
function workerFile(): { file: string; execArgv: string[] } {
  if (import.meta.url.endsWith('.ts'))
    return {
      file: fileURLToPath(new URL('./user-fs-worker.ts', import.meta.url)),
      execArgv: ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href],
    };
  // This module lands in main.js or in one of its chunks, one folder down.
  const found = ['./user-fs-worker.js', '../user-fs-worker.js'].map((rel) => fileURLToPath(new URL(rel, import.meta.url))).find((f) => existsSync(f));
  if (!found) throw new Error('the user file worker is missing beside the daemon bundle');
  return { file: found, execArgv: [] };
}

/** The kernel said no to the user: the share's rights on disk are narrower than the share's grant here. */
function refusal(err: Error): Error {
  return (err as NodeJS.ErrnoException).code === 'EACCES' ? new ProblemError('fs.entry.forbidden', undefined, { cause: err }) : err;
}

interface RemoteFolder extends Folder {
  readonly id: number;
  readonly owner: UserFsClient;
}

/** Flags of the daemon's reopen: the worker already created, truncated and refused links. */
const reopenDropped = constants.O_CREAT | constants.O_EXCL | constants.O_TRUNC | constants.O_NOFOLLOW;

/**
 * The daemon's end of one user's worker: every ShareFs call is a request the worker runs in the
 * user's identity. A file the worker opened is reopened here through /proc/<pid>/fd/<n>: the
 * kernel checked the user's rights at the worker's open, and the data path stays in the daemon.
 */
export class UserFsClient implements ShareFs {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private exited: Error | null = null;
  /** Folders held across calls (an upload streams while its folder is held). */
  private holds = 0;
  /** Called whenever the worker has no request in flight (the pool's idle clock). */
  onIdle: () => void = () => undefined;

  private constructor(
    readonly identity: string,
    private readonly child: ChildProcess,
  ) {
    child.on('message', (m: WireResponse) => {
      const waiting = this.pending.get(m.id);
      if (!waiting) return;
      this.pending.delete(m.id);
      if (m.ok) waiting.resolve(m.value);
      else waiting.reject(refusal(errorFromWire(m.error)));
      if (!this.busy) this.onIdle();
    });
    child.on('exit', (code, signal) => {
      this.exited = new Error(`the file worker of ${identity} ended (${signal ?? code})`);
      for (const waiting of this.pending.values()) waiting.reject(this.exited);
      this.pending.clear();
    });
  }

  /** Starts a worker that drops to `id` and resolves once it answers in that identity. */
  static start(username: string, id: WorkerIdentity): Promise<UserFsClient> {
    const worker = workerFile();
    const child = fork(worker.file, [], {
      execArgv: worker.execArgv,
      cwd: '/',
      env: { [identityEnv]: JSON.stringify(id), PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      const failed = (why: string) => reject(new Error(`the file worker of ${username} did not start: ${why}`));
      child.once('error', (err) => failed(err.message));
      child.once('exit', (code, signal) => failed(`exit ${signal ?? code}`));
      child.once('message', (m: WorkerReady) => {
        if (m.ready && m.uid === id.uid) resolve(new UserFsClient(username, child));
        else failed('it answered in another identity');
      });
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return this.exited === null;
  }

  get busy(): boolean {
    return this.pending.size > 0 || this.holds > 0;
  }

  /** Lets the worker go: it exits when its channel closes. */
  stop(): void {
    if (this.child.connected) this.child.disconnect();
  }

  private call(op: string, ...args: unknown[]): Promise<unknown> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ id, op, args } satisfies WireRequest, (err) => {
        if (!err) return;
        this.pending.delete(id);
        reject(err);
      });
    });
  }

  private wire(e: Entry): WireEntry {
    if (typeof e === 'string') return { abs: e };
    const folder = e.folder as RemoteFolder;
    if (folder.owner !== this) throw new Error('a folder held by another identity was passed to this one');
    return { folder: folder.id, name: e.name };
  }

  async withDir<T>(abs: string, fn: (dir: Folder) => Promise<T>): Promise<T> {
    this.holds++;
    try {
      const id = (await this.call('openFolder', abs)) as number;
      try {
        return await fn({ kind: 'folder', id, owner: this } as RemoteFolder);
      } finally {
        await this.call('closeFolder', id).catch(() => undefined);
      }
    } finally {
      this.holds--;
      if (!this.busy) this.onIdle();
    }
  }

  inParent<T>(abs: string, fn: (dir: Folder, name: string) => Promise<T>): Promise<T> {
    const cut = abs.lastIndexOf('/');
    const name = abs.slice(cut + 1);
    if (name === '' || name === '.' || name === '..') throw new Error(`needs an entry name: ${abs}`);
    return this.withDir(abs.slice(0, cut) || '/', (dir) => fn(dir, name));
  }

  async lstat(e: Entry) {
    return statsFromWire(await this.call('lstat', this.wire(e)));
  }

  async lstatBig(e: Entry) {
    return bigStatsFromWire(await this.call('lstatBig', this.wire(e)));
  }

  async open(e: Entry, flags: number, mode?: number): Promise<FileHandle> {
    const fd = (await this.call('open', this.wire(e), flags, mode)) as number;
    try {
      return await fsp.open(`/proc/${this.pid}/fd/${fd}`, flags & ~reopenDropped);
    } finally {
      await this.call('closeFile', fd).catch(() => undefined);
    }
  }

  readdir = async (e: Entry) => (await this.call('readdir', this.wire(e))) as string[];
  readlink = async (e: Entry) => (await this.call('readlink', this.wire(e))) as string;
  mkdir = async (e: Entry, mode?: number) => void (await this.call('mkdir', this.wire(e), mode));
  rmdir = async (e: Entry) => void (await this.call('rmdir', this.wire(e)));
  unlink = async (e: Entry) => void (await this.call('unlink', this.wire(e)));
  symlink = async (text: string, e: Entry) => void (await this.call('symlink', text, this.wire(e)));
  lutimes = async (e: Entry, atime: Date, mtime: Date) => void (await this.call('lutimes', this.wire(e), atime, mtime));
  chmod = async (e: Entry, mode: number) => void (await this.call('chmod', this.wire(e), mode));
  rename = async (from: Entry, to: Entry) => void (await this.call('rename', this.wire(from), this.wire(to)));
  link = async (from: Entry, to: Entry) => void (await this.call('link', this.wire(from), this.wire(to)));
  removeTree = async (e: Entry) => void (await this.call('removeTree', this.wire(e)));
  syncFolder = async (e: At | string) => void (await this.call('syncFolder', this.wire(e)));
}
