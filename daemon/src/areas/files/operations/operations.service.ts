import type { FileOperationRequest } from '../../../../../shared/src/api/files/operations.ts';
import type { Job } from '../../../../../shared/src/api/jobs/jobs.ts';
import type { GrantLevel } from '../../../../../shared/src/api/shares/shares.ts';
import type { Principal } from '../../../core/principal.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import { assertExists, resolveInShare } from '../safe-path.ts';
import { readyShareBin } from '../trash/trash-bin.ts';
import { assertNotIntoItself, targetFolderOf, type OperationJobParams } from './operations.jobs.ts';

export interface OperationsDeps {
  /** The share's folder when the caller holds `need` on it (throws fs.share.not_found / read_only). */
  shareFolder(principal: Principal, shareId: number, need: GrantLevel): Promise<string>;
  enqueue(params: OperationJobParams, userId: number): Promise<Job>;
}

/**
 * Checks a copy, move or delete when it is asked for (access, paths, a folder into itself) and
 * queues it as a job; the job resolves every path again when it runs.
 */
export class OperationsService {
  constructor(private readonly deps: OperationsDeps) {}

  async start(principal: Principal, body: FileOperationRequest): Promise<Job> {
    // Copy only reads its sources; move and delete change the folders they come from.
    const sourceNeed: GrantLevel = body.op === 'copy' ? 'read' : 'readWrite';
    const sources = [];
    const bins = new Set<string>();
    for (const ref of body.sources) {
      const r = await resolveInShare(await this.deps.shareFolder(principal, ref.shareId, sourceNeed), ref.path);
      if (r.rel === '') throw new ProblemError('fs.path.invalid', { reason: 'shareRoot' });
      assertExists(r);
      sources.push(r);
      // A bin that cannot take the entries (another file system) is refused now rather than by a failing job.
      if (body.op === 'delete' && !body.permanent && !bins.has(r.root)) bins.add(await readyShareBin(r.root));
    }
    if (body.target) {
      const root = await this.deps.shareFolder(principal, body.target.shareId, 'readWrite');
      const folder = await targetFolderOf(await resolveInShare(root, body.target.path));
      for (const r of sources) assertNotIntoItself(r, folder);
    }
    const params: OperationJobParams = {
      op: body.op,
      sources: body.sources,
      target: body.target ?? null,
      onConflict: body.onConflict ?? 'fail',
      permanent: body.permanent ?? false,
      username: principal.username,
    };
    return this.deps.enqueue(params, principal.id);
  }
}
