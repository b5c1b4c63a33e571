import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import path from 'node:path';
import type { FileVersion, FileVersionList, FileVersionRestoreRequest } from '../../../../shared/src/api/storage/file-versions.ts';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { Principal } from '../../core/principal.ts';
import { lstat, open, readdir } from '../../host/nofollow-fs.ts';
import { numberProp } from '../../host/zfs/zfs-get.ts';
import type { SnapshotReader } from '../../host/zfs/snapshot-reader.ts';
import type { ZfsDriver } from '../../host/zfs/zfs-driver.ts';
import { isReservedName, parseRelPath, resolveInShare } from '../files/safe-path.ts';
import { mountpointOf, shareRootOf } from '../shares/share-layout.ts';

export const versionRestoreJob = 'files.versions.restore';

/** A share as versions need it, after the caller's access was checked. */
export interface VersionShare {
  name: string;
  hostPath: string;
  dataset: string | null;
}

export interface FileVersionsDeps {
  zfs: ZfsDriver;
  reader: SnapshotReader;
  share(principal: Principal, shareId: number, need: 'read' | 'readWrite'): Promise<VersionShare>;
  enqueue(kind: string, params: object, userId: number): Promise<Job>;
}

export interface SnapshotRef {
  name: string;
  createdAt: number;
}

/** What an entry is in one tree: type, size, time and a content signature. */
interface EntryState {
  type: 'file' | 'folder';
  size: number | null;
  modifiedAt: number;
  signature: string;
}

/** Content signature: a file's SHA-256; a folder's names, types, sizes and file hashes, recursively (reserved names left out). */
async function signature(full: string, isFolder: boolean): Promise<string> {
  const hash = createHash('sha256');
  if (!isFolder) {
    const handle = await open(full, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      for await (const chunk of handle.createReadStream({ autoClose: false })) hash.update(chunk as Buffer);
    } finally {
      await handle.close();
    }
    return hash.digest('hex');
  }
  for (const name of (await readdir(full)).filter((n) => !isReservedName(n)).sort()) {
    const st = await lstat(path.join(full, name));
    const inner = st.isDirectory() || st.isFile() ? await signature(path.join(full, name), st.isDirectory()) : `link:${st.size}`;
    hash.update(`${name}\0${st.isDirectory() ? 'd' : 'f'}\0${inner}\n`);
  }
  return hash.digest('hex');
}

/** The entry at `rel` inside `root` (a share or a snapshot of it), resolved by the files area's safe-path rules; null when absent. */
export async function entryState(root: string, rel: string): Promise<EntryState | null> {
  const resolved = await resolveInShare(root, rel).catch(() => null);
  const st = resolved?.stat;
  if (!resolved || !st || (!st.isFile() && !st.isDirectory())) return null;
  const isFolder = st.isDirectory();
  return {
    type: isFolder ? 'folder' : 'file',
    size: isFolder ? null : Number(st.size),
    modifiedAt: Number(st.mtimeMs),
    signature: await signature(resolved.full, isFolder),
  };
}

/** Earlier versions of files from the share dataset's snapshots (spec 4.3). */
export class FileVersionsService {
  constructor(private readonly deps: FileVersionsDeps) {}

  /** The dataset's snapshots, newest first. */
  async snapshots(dataset: string): Promise<SnapshotRef[]> {
    const objects = await this.deps.zfs.objects(dataset, 1);
    return objects
      .filter((o) => o.name.startsWith(`${dataset}@`))
      .map((o) => ({ name: o.name.slice(dataset.length + 1), createdAt: (numberProp(o, 'creation') ?? 0) * 1000 }))
      .sort((a, b) => b.createdAt - a.createdAt || b.name.localeCompare(a.name));
  }

  async list(principal: Principal, shareId: number, rel: string): Promise<FileVersionList> {
    parseRelPath(rel);
    const share = await this.deps.share(principal, shareId, 'read');
    const current = await entryState(share.hostPath, rel);
    const out: FileVersionList = { path: rel, deleted: current === null, versions: [] };
    if (!share.dataset) return out;
    const seen = new Set<string>(current ? [current.signature] : []);
    for (const snap of await this.snapshots(share.dataset)) {
      const state = await this.deps.reader.with(share.dataset, snap.name, mountpointOf(share.hostPath), (root) => entryState(shareRootOf(root), rel));
      // Listed once per distinct content, and never while equal to the current entry.
      if (!state || seen.has(state.signature)) continue;
      seen.add(state.signature);
      out.versions.push(toVersion(snap, state));
    }
    return out;
  }

  async restore(principal: Principal, shareId: number, body: FileVersionRestoreRequest): Promise<Job> {
    parseRelPath(body.path);
    // Access is checked now, at request time; the job runs with what was granted here.
    await this.deps.share(principal, shareId, 'readWrite');
    return this.deps.enqueue(
      versionRestoreJob,
      { shareId, path: body.path, version: body.version, overwrite: body.overwrite ?? false, principal: { id: principal.id, admin: principal.admin } },
      principal.id,
    );
  }
}

function toVersion(snap: SnapshotRef, state: EntryState): FileVersion {
  return {
    version: snap.name,
    snapshotAt: new Date(snap.createdAt).toISOString(),
    type: state.type,
    size: state.size,
    modifiedAt: new Date(state.modifiedAt).toISOString(),
  };
}

/** `name (version yyyy-MM-dd HH.mm UTC)ext`; folders and names without an extension get no ext. */
export function versionName(name: string, at: number, isFolder: boolean): string {
  const iso = new Date(at).toISOString();
  const stamp = `${iso.slice(0, 10)} ${iso.slice(11, 13)}.${iso.slice(14, 16)} UTC`;
  const dot = name.lastIndexOf('.');
  const [base, ext] = isFolder || dot <= 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot)];
  return `${base} (version ${stamp})${ext}`;
}
