import path from 'node:path';
import type { FileOperationKind, FileOperationResult, OnConflict, SharePath } from '../../../../../shared/src/api/files/operations.ts';
import type { JobTitle } from '../../../../../shared/src/api/jobs/jobs.ts';
import type { JobContext, JobKind } from '../../../core/jobs/job-types.ts';
import type { Logger } from '../../../core/logger.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import { lstat } from '../../../host/nofollow-fs.ts';
import type { ShareFsFor } from '../../../host/share-fs/share-fs.ts';
import { assertExists, assertFollowable, isInside, resolveInShare, type ResolvedPath } from '../safe-path.ts';
import { asSpaceProblem } from '../space.ts';
import { moveIntoBin, type BinDeps } from '../trash/trash-bin.ts';
import { copyInto } from '../copy-entry.ts';
import { moveInto } from '../move-entry.ts';
import { lstatOrNull, treeBytes, type TreeContext } from '../tree.ts';

export const operationJobKind = 'files.operation';

/** What the request stored for the job: defaults filled in, and the name of who asked (the bin records it). */
export interface OperationJobParams {
  op: FileOperationKind;
  sources: SharePath[];
  target: SharePath | null;
  onConflict: OnConflict;
  permanent: boolean;
  username: string;
}

export interface OperationJobDeps {
  /** The real folder of a share (access was checked when the job was asked for). */
  shareRoot(shareId: number): Promise<string>;
  /** A share's name, for the problem of a share without room. */
  shareName(shareId: number): Promise<string>;
  bin: BinDeps;
  /** The file calls of the user who asked for the job: copies, moves and deletes run in that user's identity. */
  fsFor: ShareFsFor;
  logger: Logger;
  /** Drops cached thumbnails of an entry that is gone or replaced (the thumbnails area's hook). */
  forget(shareId: number, rel: string): Promise<void>;
  /** Drops listing snapshots of a folder written into (and of the folders below it). */
  folderChanged(folder: string): void;
  /** Entries moved in from another share keep its ACL (a rename keeps them): the file services give them this share's. */
  arrived(shareId: number, fullPaths: string[]): void;
}

interface Source {
  ref: SharePath;
  r: ResolvedPath;
}

/** A folder can go neither into itself nor below itself. */
export function assertNotIntoItself(source: ResolvedPath, targetFolder: string): void {
  if (source.stat?.isDirectory() && isInside(targetFolder, source.full)) throw new ProblemError('fs.operation.into_itself', { path: source.rel });
}

/** The real folder a copy or move goes into: it must exist and be a folder inside its share. */
export async function targetFolderOf(t: ResolvedPath): Promise<string> {
  assertExists(t);
  assertFollowable(t);
  const s = await lstat(t.target).catch((err: unknown) => {
    // Gone since it was resolved (or its folder swapped away): not there any more.
    throw (err as NodeJS.ErrnoException).code === 'ENOENT' ? new ProblemError('fs.entry.not_found') : err;
  });
  if (!s.isDirectory()) throw new ProblemError('fs.entry.not_folder');
  return t.target;
}

export function operationJob(deps: OperationJobDeps): JobKind<OperationJobParams, FileOperationResult> {
  return { concurrency: 2, run: (job) => runOperation(deps, job), title: (p) => operationTitle(deps, p) };
}

/** "Copying 3 items to Family": the operation, how many entries and the target folder's name (the share's at its top). */
async function operationTitle(deps: Pick<OperationJobDeps, 'shareName'>, p: OperationJobParams): Promise<JobTitle> {
  const params: JobTitle['params'] = { count: p.sources.length };
  if (p.target) params.target = p.target.path.split('/').filter(Boolean).pop() ?? (await deps.shareName(p.target.shareId));
  return { code: `files.${p.op}`, params };
}

async function runOperation(deps: OperationJobDeps, job: JobContext<OperationJobParams>): Promise<FileOperationResult> {
  const p = job.params;
  const roots = new Map<number, string>();
  for (const ref of [...p.sources, ...(p.target ? [p.target] : [])]) if (!roots.has(ref.shareId)) roots.set(ref.shareId, await deps.shareRoot(ref.shareId));
  const result: FileOperationResult = { op: p.op, entries: [], skipped: [] };
  const located = (abs: string): SharePath => {
    for (const [shareId, root] of roots) if (isInside(abs, root)) return { shareId, path: path.relative(root, abs).split(path.sep).join('/') };
    return { shareId: 0, path: path.basename(abs) };
  };
  let done = 0;
  let total = 0;
  const ctx: TreeContext = {
    fs: await deps.fsFor(job.userId),
    signal: job.signal,
    // Deletes count items; only copies and moves count bytes.
    addBytes: (bytes) => {
      if (p.op === 'delete') return;
      done += bytes;
      job.progress(done, total, 'bytes');
    },
    report: (abs, reason) => result.skipped.push({ ...located(abs), reason }),
    relOf: (abs) => located(abs).path,
  };
  const sources: Source[] = [];
  for (const ref of p.sources) {
    const r = await resolveInShare(roots.get(ref.shareId) as string, ref.path);
    assertExists(r);
    sources.push({ ref, r });
  }
  if (p.op === 'delete') {
    job.progress(0, sources.length, 'items');
    for (const [i, { ref, r }] of sources.entries()) {
      job.signal.throwIfAborted();
      try {
        if (p.permanent) await ctx.fs.removeTree(r.full);
        else await moveIntoBin(deps.bin, { id: ref.shareId, root: r.root }, r, { userId: job.userId, username: p.username }, ctx);
      } finally {
        // A failed or cancelled delete may have removed part of a tree.
        deps.folderChanged(r.parent);
      }
      result.entries.push({ source: ref, outcome: p.permanent ? 'deleted' : 'trashed', target: null });
      await deps.forget(ref.shareId, r.rel);
      job.progress(i + 1, sources.length, 'items');
    }
    deps.logger.info('files deleted', { logCode: 'files.deleted', component: 'files', jobId: job.jobId, entries: sources.length, permanent: p.permanent });
    return result;
  }
  const target = p.target as SharePath;
  const targetRoot = roots.get(target.shareId) as string;
  const folder = await targetFolderOf(await resolveInShare(targetRoot, target.path));
  for (const { r } of sources) assertNotIntoItself(r, folder);
  for (const { r } of sources) total += await treeBytes(ctx.fs, r.full, job.signal);
  job.progress(0, total, 'bytes');
  // With fail, a taken name stops the job before anything was written.
  if (p.onConflict === 'fail') {
    for (const { r } of sources) {
      const dest = path.join(folder, r.name);
      if (dest !== r.full && (await lstatOrNull(ctx.fs, dest))) throw new ProblemError('fs.entry.exists', { name: located(dest).path });
    }
  }
  const options = { ctx, onConflict: p.onConflict, targetRoot };
  const arrived: string[] = [];
  try {
    for (const { ref, r } of sources) {
      let dest: string | null;
      try {
        dest = p.op === 'copy' ? await copyInto(r.full, folder, r.name, options) : await moveInto(r.full, folder, r.name, options);
      } finally {
        // Merged folders are written deep: the target's snapshots and those below it go; a move empties the source's folder.
        deps.folderChanged(folder);
        if (p.op === 'move') deps.folderChanged(r.parent);
      }
      const outcome = dest === null ? 'skipped' : p.op === 'copy' ? 'copied' : 'moved';
      result.entries.push({ source: ref, outcome, target: dest === null ? null : located(dest) });
      if (p.op === 'move') await deps.forget(ref.shareId, r.rel);
      if (p.op === 'move' && dest !== null && ref.shareId !== target.shareId) arrived.push(dest);
      if (dest !== null && p.onConflict === 'overwrite') await deps.forget(target.shareId, located(dest).path);
    }
  } catch (err) {
    // The target ran full or over its quota: the job's error names the share and the space.
    await asSpaceProblem(err, folder, await deps.shareName(target.shareId), total);
  }
  if (arrived.length > 0) deps.arrived(target.shareId, arrived);
  deps.logger.info(p.op === 'copy' ? 'files copied' : 'files moved', {
    logCode: p.op === 'copy' ? 'files.copied' : 'files.moved',
    component: 'files',
    jobId: job.jobId,
    entries: sources.length,
    bytes: total,
    skipped: result.skipped.length,
  });
  return result;
}
