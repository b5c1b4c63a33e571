import Joi from 'joi';
import { hostToolErrors, id, isoTime, pathErrors } from '../common.ts';
import { jobSchema } from '../jobs/jobs.ts';
import { defineRoute } from '../route.ts';

export interface FileVersion {
  /** The snapshot holding this version; pass it back to restore. */
  version: string;
  /** When the snapshot was taken. */
  snapshotAt: string;
  type: 'file' | 'folder';
  /** Size in bytes of a file; null for a folder. */
  size: number | null;
  /** Modification time of the entry in that snapshot. */
  modifiedAt: string;
}

export interface FileVersionList {
  path: string;
  /** The entry no longer exists (it was deleted since). */
  deleted: boolean;
  /** Newest first; one per distinct content; none equal to the current entry. */
  versions: FileVersion[];
}

export interface FileVersionRestoreRequest {
  path: string;
  version: string;
  /** Replace the current entry (files replaced, folders merged) instead of restoring next to it. */
  overwrite?: boolean;
}

const fileVersion = Joi.object<FileVersion, true>({
  version: Joi.string().required(),
  snapshotAt: isoTime().required(),
  type: Joi.string().valid('file', 'folder').required(),
  size: Joi.number().integer().min(0).allow(null).required(),
  modifiedAt: isoTime().required(),
}).id('FileVersion');
const fileVersionList = Joi.object<FileVersionList, true>({
  path: Joi.string().allow('').required(),
  deleted: Joi.boolean().required(),
  versions: Joi.array().items(fileVersion).required(),
}).id('FileVersionList');
const relPath = () => Joi.string().min(1).max(4096);
const fileVersionRestoreRequest = Joi.object<FileVersionRestoreRequest, true>({
  path: relPath().required(),
  version: Joi.string()
    .pattern(/^[A-Za-z0-9_.:-]{1,200}$/)
    .required(),
  overwrite: Joi.boolean().default(false),
}).id('FileVersionRestoreRequest');

const shareIdParams = Joi.object<{ shareId: number }, true>({ shareId: id().required() });
const pathQuery = Joi.object<{ path: string }, true>({ path: relPath().required() });

export const fileVersionsRoutes = {
  list: defineRoute({
    id: 'files.versions',
    method: 'GET',
    path: '/api/files/{shareId}/versions',
    access: 'user',
    summary:
      "Earlier versions of an entry from the share dataset's snapshots: newest first, once per distinct content, not while equal to the current entry, deleted entries too; empty for a share without dataset; needs read access",
    params: shareIdParams,
    query: pathQuery,
    status: 200,
    response: fileVersionList,
    errors: [...pathErrors, ...hostToolErrors],
  }),
  restore: defineRoute({
    id: 'files.restoreVersion',
    method: 'POST',
    path: '/api/files/{shareId}/versions/restore',
    access: 'user',
    summary:
      'Copies a version next to the entry as `name (version yyyy-MM-dd HH.mm UTC)`, or over it with overwrite=true (files replaced, folders merged); a job; needs read-write access',
    params: shareIdParams,
    body: fileVersionRestoreRequest,
    status: 202,
    response: jobSchema,
    errors: [...pathErrors, 'fs.share.read_only', 'fs.version.not_found', ...hostToolErrors],
  }),
};
