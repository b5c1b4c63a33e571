import Joi from 'joi';
import { id, pathErrors } from '../common.ts';
import { jobSchema } from '../jobs/jobs.ts';
import { defineRoute } from '../route.ts';

export type FileOperationKind = 'copy' | 'move' | 'delete';
/**
 * What happens when the target name is taken: fail (the job fails with fs.entry.exists naming the
 * path), skip (the entry is left out), overwrite (files replaced, folders merged entry by entry),
 * rename (the entry gets the next free "name (2).ext").
 */
export type OnConflict = 'fail' | 'skip' | 'overwrite' | 'rename';

export interface SharePath {
  shareId: number;
  /** Relative to the share, `/`-separated. */
  path: string;
}

export interface FileOperationRequest {
  op: FileOperationKind;
  sources: SharePath[];
  /** The folder the sources go into (copy and move only). */
  target?: SharePath;
  /** Default fail. */
  onConflict?: OnConflict;
  /** delete only: remove for good instead of moving into the share's recycle bin. Default false. */
  permanent?: boolean;
}

/** Why an entry was left out: the name was taken (skip), a link would lead out of the target share, or not a file, folder or link. */
export type SkipReason = 'exists' | 'linkOutside' | 'special';

/** What a files.operation job answers as its result. */
export interface FileOperationResult {
  op: FileOperationKind;
  /** One per source, in request order. */
  entries: { source: SharePath; outcome: 'copied' | 'moved' | 'trashed' | 'deleted' | 'skipped'; target: SharePath | null }[];
  /** Entries left out anywhere in the trees, with the reason. */
  skipped: { shareId: number; path: string; reason: SkipReason }[];
}

const relPath = () => Joi.string().max(4096);
export const maxOperationSources = 1000;

export const sharePath = Joi.object<SharePath, true>({
  shareId: id().required(),
  path: relPath().allow('').required(),
}).id('SharePath');

export const onConflictSchema = () => Joi.string().valid('fail', 'skip', 'overwrite', 'rename');

export const fileOperationRequest = Joi.object<FileOperationRequest, true>({
  op: Joi.string().valid('copy', 'move', 'delete').required(),
  sources: Joi.array().items(sharePath).min(1).max(maxOperationSources).required(),
  target: sharePath.when('op', { is: 'delete', then: Joi.forbidden(), otherwise: Joi.required() }),
  onConflict: onConflictSchema().when('op', { is: 'delete', then: Joi.forbidden() }),
  permanent: Joi.boolean().when('op', { is: 'delete', otherwise: Joi.forbidden() }),
}).id('FileOperationRequest');

export const fileOperationsRoutes = {
  run: defineRoute({
    id: 'fileOperations.run',
    method: 'POST',
    path: '/api/files/operations',
    access: 'user',
    summary:
      'Copy, move or delete as a job (follow it on jobs/<id>); access checked now: read on sources for copy, write on sources for move and delete, write on the target; delete moves into the recycle bin unless permanent; onConflict fail (default), skip, overwrite (folders merged), rename',
    description:
      'Every path is resolved inside its share; links leading out of a share are never followed. A symbolic link inside a copied tree is copied as a link when it leads inside the target share and is left out (reported as linkOutside) otherwise; a move within one file system is a rename and moves links as they are. Files are written under a hidden temporary name and appear only once complete; a cancelled job leaves no partial file.',
    body: fileOperationRequest,
    status: 202,
    response: jobSchema,
    errors: [...pathErrors, 'fs.share.read_only', 'fs.entry.not_found', 'fs.entry.not_folder', 'fs.operation.into_itself', 'fs.trash.unavailable'],
  }),
};
