import type { FileHandle } from 'node:fs/promises';
import { daemonFs, holdFolder } from './daemon-fs.ts';
import type { Entry, Folder } from './share-fs.ts';
import { errorToWire, identityEnv, type WireEntry, type WireRequest, type WireResponse, type WorkerIdentity, type WorkerReady } from './user-fs-protocol.ts';

/**
 * A share user's file worker: started by the daemon as root, it takes the user's groups, gid
 * and uid before it reads a single request, and then runs the daemon's nofollow calls
 * (daemon-fs.ts) in that identity. Opened files are handed back by descriptor number: the
 * daemon reopens /proc/<pid>/fd/<n>, the same open file, so the bytes never cross this channel.
 */

function dropPrivileges(): WorkerIdentity {
  const raw = process.env[identityEnv];
  if (!raw) throw new Error(`${identityEnv} is not set`);
  const id = JSON.parse(raw) as WorkerIdentity;
  const { setgroups, setgid, setuid } = process;
  if (!setgroups || !setgid || !setuid) throw new Error('this platform cannot change identity');
  // Groups first and uid last: once the uid is dropped, nothing else may change any more.
  setgroups.call(process, id.groups);
  setgid.call(process, id.gid);
  setuid.call(process, id.uid);
  if (process.geteuid?.() !== id.uid || process.getegid?.() !== id.gid) throw new Error('the identity did not take');
  return id;
}

const folders = new Map<number, { folder: Folder; release(): Promise<void> }>();
const files = new Map<number, FileHandle>();
let nextFolder = 1;

function entry(w: unknown): Entry {
  const e = w as WireEntry;
  if ('abs' in e) return e.abs;
  const held = folders.get(e.folder);
  if (!held) throw new Error(`no held folder ${e.folder}`);
  return { folder: held.folder, name: e.name };
}

const ops: Record<string, (...args: unknown[]) => Promise<unknown>> = {
  openFolder: async (abs) => {
    const id = nextFolder++;
    folders.set(id, await holdFolder(abs as string));
    return id;
  },
  closeFolder: async (id) => {
    const held = folders.get(id as number);
    folders.delete(id as number);
    await held?.release();
  },
  lstat: (e) => daemonFs.lstat(entry(e)),
  lstatBig: (e) => daemonFs.lstatBig(entry(e)),
  open: async (e, flags, mode) => {
    const handle = await daemonFs.open(entry(e), flags as number, mode as number | undefined);
    files.set(handle.fd, handle);
    return handle.fd;
  },
  closeFile: async (fd) => {
    const handle = files.get(fd as number);
    files.delete(fd as number);
    await handle?.close();
  },
  readdir: (e) => daemonFs.readdir(entry(e)),
  readlink: (e) => daemonFs.readlink(entry(e)),
  mkdir: (e, mode) => daemonFs.mkdir(entry(e), mode as number | undefined),
  rmdir: (e) => daemonFs.rmdir(entry(e)),
  unlink: (e) => daemonFs.unlink(entry(e)),
  symlink: (text, e) => daemonFs.symlink(text as string, entry(e)),
  lutimes: (e, atime, mtime) => daemonFs.lutimes(entry(e), atime as Date, mtime as Date),
  chmod: (e, mode) => daemonFs.chmod(entry(e), mode as number),
  rename: (from, to) => daemonFs.rename(entry(from), entry(to)),
  link: (from, to) => daemonFs.link(entry(from), entry(to)),
  removeTree: (e) => daemonFs.removeTree(entry(e)),
  syncFolder: (e) => daemonFs.syncFolder(entry(e)),
};

async function answer(req: WireRequest): Promise<WireResponse> {
  try {
    const op = ops[req.op];
    if (!op) throw new Error(`unknown operation ${req.op}`);
    return { id: req.id, ok: true, value: await op(...req.args) };
  } catch (err) {
    return { id: req.id, ok: false, error: errorToWire(err) };
  }
}

function serve(): void {
  const id = dropPrivileges();
  // answer() never rejects; a send on a closed channel (the daemon is gone) has nobody to tell.
  process.on(
    'message',
    (req: WireRequest) =>
      void answer(req)
        .then((res) => process.send?.(res))
        .catch(() => undefined),
  );
  // The daemon is gone (or let this worker go): nothing here outlives it.
  process.on('disconnect', () => process.exit(0));
  process.send?.({ ready: true, uid: id.uid } satisfies WorkerReady);
}

serve();
