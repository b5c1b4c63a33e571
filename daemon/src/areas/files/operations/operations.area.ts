import type { Sequelize } from 'sequelize';
import type { Clock } from '../../../core/clock.ts';
import type { JobEngine } from '../../../core/jobs/job-engine.ts';
import type { Logger } from '../../../core/logger.ts';
import type { Principal } from '../../../core/principal.ts';
import type { Scheduler } from '../../../core/scheduler.ts';
import type { ShareFsFor } from '../../../host/share-fs/share-fs.ts';
import { api } from '../../../../../shared/src/api/index.ts';
import { tableRoutes } from '../../../http/area-routes.ts';
import { defineArea } from '../../area.ts';
import type { SharesService } from '../../shares/shares.service.ts';
import { trashJobs, type TrashJobKind } from '../trash/trash.jobs.ts';
import { initTrashModel } from '../trash/trash.model.ts';
import { purgeTrash, trashPurgeIntervalMs, trashPurgeTask } from '../trash/trash-purge.ts';
import { trashHandlers } from '../trash/trash.routes.ts';
import { TrashService } from '../trash/trash.service.ts';
import { operationJob, operationJobKind } from './operations.jobs.ts';
import { sweepTemporaries, temporariesSweepIntervalMs, temporariesSweepTask } from '../temporaries.ts';
import { fileOperationsHandlers } from './operations.routes.ts';
import { OperationsService } from './operations.service.ts';

export interface FileOperationsAreaDeps {
  db: Sequelize;
  clock: Clock;
  logger: Logger;
  jobs: Pick<JobEngine, 'register' | 'enqueue'>;
  scheduler: Pick<Scheduler, 'every'>;
  shares: Pick<SharesService, 'requireAccess' | 'details' | 'nameOf'>;
  /** The thumbnails area's hook: drops cached thumbnails of an entry and everything below it. */
  forgetThumbnails(shareId: number, rel: string): Promise<unknown>;
  /** The files area's hook: drops listing snapshots of a folder (and below) the jobs wrote into. */
  folderChanged(folder: string): void;
  /** The file services' hook: entries renamed into a share from elsewhere get its ACL. */
  entriesArrived(shareId: number, fullPaths: string[]): void;
  /** The identity a user's copy, move or delete runs in. */
  fsFor: ShareFsFor;
}

/**
 * Jobs run after the request that checked the caller's access; they reach the share's folder
 * the way an administrator does (administrators read and write every share).
 */
const jobPrincipal: Principal = {
  id: 0,
  username: 'file operations',
  displayName: 'file operations',
  language: 'en',
  totpEnabled: false,
  admin: true,
  rights: new Set(),
  sessionId: '',
};

/** Builds file operations and recycle bins: their job kinds, the daily purge and the two services. */
export function createFileOperationsArea(deps: FileOperationsAreaDeps) {
  const { jobs, shares, logger, clock } = deps;
  const rows = initTrashModel(deps.db);
  // A stale thumbnail is only wasted space (the sweep catches it too): never fail an operation over it.
  const forget = async (shareId: number, rel: string) => {
    await deps
      .forgetThumbnails(shareId, rel)
      .catch((err: unknown) => logger.warn('thumbnails not dropped', { component: 'files', shareId, error: err instanceof Error ? err.message : String(err) }));
  };
  const shareRoot = async (shareId: number) => (await shares.requireAccess(jobPrincipal, shareId, 'readWrite')).hostPath;
  jobs.register(
    operationJobKind,
    operationJob({
      shareRoot,
      shareName: (id) => shares.nameOf(id),
      bin: { rows, clock },
      logger,
      forget,
      folderChanged: deps.folderChanged,
      arrived: deps.entriesArrived,
      fsFor: deps.fsFor,
    }),
  );
  for (const [kind, definition] of Object.entries(
    trashJobs({ rows, shareRoot, logger, forget, folderChanged: deps.folderChanged, arrived: deps.entriesArrived }),
  ))
    jobs.register(kind, definition);
  deps.scheduler.every(trashPurgeTask, trashPurgeIntervalMs, (signal) => purgeTrash({ rows, clock, logger, shares: () => shares.details() }, signal), {
    delayFirst: true,
  });
  // Also at start (no delay): what a killed daemon left behind goes before anybody misses the space.
  deps.scheduler.every(temporariesSweepTask, temporariesSweepIntervalMs, (signal) =>
    sweepTemporaries(
      {
        logger,
        now: () => clock.now(),
        roots: async () => (await shares.details()).flatMap((s) => (s.hostPath === null ? [] : [s.hostPath])),
      },
      signal,
    ),
  );
  const operations = new OperationsService({
    shareFolder: async (principal, shareId, need) => (await shares.requireAccess(principal, shareId, need)).hostPath,
    enqueue: (params, userId) => jobs.enqueue(operationJobKind, params, userId),
  });
  const trash = new TrashService({
    rows,
    share: (principal, shareId, need) => shares.requireAccess(principal, shareId, need),
    enqueue: (kind: TrashJobKind, params, userId) => jobs.enqueue(kind, params, userId),
  });
  return defineArea({
    name: 'file-operations',
    routes: [tableRoutes(api.fileOperations, fileOperationsHandlers(operations)), tableRoutes(api.trash, trashHandlers(trash))],
    operations,
    trash,
  });
}
