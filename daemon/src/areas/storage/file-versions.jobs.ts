import path from 'node:path';
import type { JobContext } from '../../core/jobs/job-types.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { SnapshotReader } from '../../host/zfs/snapshot-reader.ts';
import { copyInto } from '../files/copy-entry.ts';
import { ensureFolders } from '../files/tree.ts';
import { asSpaceProblem } from '../files/space.ts';
import { parseRelPath, resolveInShare } from '../files/safe-path.ts';
import { mountpointOf, shareRootOf } from '../shares/share-layout.ts';
import { entryState, versionName, type FileVersionsService, type VersionShare } from './file-versions.service.ts';
import { daemonFs } from '../../host/share-fs/daemon-fs.ts';

export interface VersionRestoreParams {
  shareId: number;
  path: string;
  version: string;
  overwrite: boolean;
}

export interface VersionRestoreDeps {
  versions: FileVersionsService;
  reader: SnapshotReader;
  /** The share without an access check: the request checked it. */
  shareById(shareId: number): Promise<VersionShare | null>;
}

/**
 * Copies one version out of its snapshot: next to the current entry under the version name, or
 * over it (files replaced, folders merged: entries only in the current folder stay).
 * Missing parent folders are made again, as for a deleted entry.
 */
export async function runVersionRestore(deps: VersionRestoreDeps, ctx: JobContext<VersionRestoreParams>): Promise<{ path: string }> {
  const { shareId, version, overwrite } = ctx.params;
  const segments = parseRelPath(ctx.params.path);
  const share = await deps.shareById(shareId);
  if (!share?.dataset) throw new ProblemError('fs.share.not_found', { shareId });
  const snapshot = (await deps.versions.snapshots(share.dataset)).find((s) => s.name === version);
  if (!snapshot) throw new ProblemError('fs.version.not_found', { version });
  ctx.progress(0, 1, 'entries');
  const name = segments[segments.length - 1] ?? '';
  const parentRel = segments.slice(0, -1).join('/');
  // A snapshot holds the whole dataset: the share's tree is its `files` folder.
  const restored = await deps.reader.with(share.dataset, version, mountpointOf(share.hostPath), async (snapshotRoot) => {
    const root = shareRootOf(snapshotRoot);
    const state = await entryState(root, ctx.params.path);
    if (!state) throw new ProblemError('fs.version.not_found', { version });
    const source = (await resolveInShare(root, ctx.params.path)).full;
    // The parent may be gone since (a deleted entry): make it again inside the share.
    const parent = await ensureFolders(daemonFs, share.hostPath, segments.slice(0, -1));
    const targetName = overwrite ? name : versionName(name, snapshot.createdAt, state.type === 'folder');
    const existing = await resolveInShare(share.hostPath, [parentRel, targetName].filter((s) => s !== '').join('/'));
    if (existing.stat && !overwrite) throw new ProblemError('fs.entry.exists', { name: targetName });
    if (existing.stat && overwrite && existing.stat.isDirectory() !== (state.type === 'folder'))
      throw new ProblemError(state.type === 'folder' ? 'fs.entry.not_folder' : 'fs.entry.is_folder');
    // The copy rules of the files area: written under a hidden name and put in place when complete, folders
    // merged under overwrite, every path walked without following links, links kept only when they lead inside.
    const targetRoot = (await resolveInShare(share.hostPath, '')).root;
    // The snapshot is mounted where only the daemon reads: it copies in its own identity.
    const treeCtx = {
      fs: daemonFs,
      signal: ctx.signal,
      addBytes: () => undefined,
      report: () => undefined,
      relOf: (abs: string) => path.relative(targetRoot, abs),
    };
    await copyInto(source, parent, targetName, { ctx: treeCtx, onConflict: overwrite ? 'overwrite' : 'fail', targetRoot }).catch((err: unknown) =>
      asSpaceProblem(err, parent, share.name, state.size),
    );
    return [parentRel, targetName].filter((s) => s !== '').join('/');
  });
  ctx.progress(1, 1, 'entries');
  return { path: restored };
}
