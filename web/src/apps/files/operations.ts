import { tn } from '../../lib/i18n/i18n.svelte.ts';
import type { FileOperationRequest, FileOperationResult, OnConflict, SharePath } from '../../../../shared/src/api/files/operations.ts';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import { api } from '../../lib/api.ts';
import type { JobTracker } from './jobs.svelte.ts';

export function operationLabel(request: FileOperationRequest): string {
  const count = request.sources.length;
  if (request.op === 'copy') return tn('files.job.copy', count);
  if (request.op === 'move') return tn('files.job.move', count);
  return request.permanent ? tn('files.job.deleteForGood', count) : tn('files.job.delete', count);
}

/**
 * Starts a copy, move or delete job and follows it in the bar. A copy or move that stops at a
 * taken name calls `conflict`, which may run it again with the user's choice.
 */
export async function runOperation(
  tracker: JobTracker,
  request: FileOperationRequest,
  finished: (paths: SharePath[]) => void,
  conflict?: (retry: (choice: OnConflict) => void, name: string) => void,
): Promise<void> {
  const job = await api.fileOperations.run({ body: request });
  tracker.track(job, operationLabel(request), (done: Job) => {
    finished(touched(request, done));
    if (done.state !== 'failed' || done.error?.code !== 'fs.entry.exists' || !conflict) return;
    tracker.dismiss(done.id);
    const name = String(done.error.params?.name ?? done.error.params?.path ?? '');
    conflict((choice) => void runOperation(tracker, { ...request, onConflict: choice }, finished).catch(() => undefined), name);
  });
}

/** Every path a finished job may have changed: its sources and the targets it reports. */
function touched(request: FileOperationRequest, job: Job): SharePath[] {
  const result = job.result as FileOperationResult | null;
  const targets = (result?.entries ?? []).flatMap((e) => (e.target ? [e.target] : []));
  return [...request.sources, ...targets];
}

export function sourcesOf(shareId: number, paths: Iterable<string>): SharePath[] {
  return [...paths].map((path) => ({ shareId, path }));
}
