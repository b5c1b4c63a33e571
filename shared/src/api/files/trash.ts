import Joi from 'joi';
import { id, isoTime } from '../common.ts';
import { onConflictSchema, type OnConflict } from './operations.ts';
import { jobSchema } from '../jobs/jobs.ts';
import { defineRoute } from '../route.ts';
import { shareIdParams } from '../shares/shares.ts';

export type TrashItemType = 'file' | 'folder' | 'symlink' | 'other';

export interface TrashItem {
  id: number;
  /** Name the entry had. */
  name: string;
  /** Where it was in the share; restore puts it back there. */
  originalPath: string;
  type: TrashItemType;
  /** Bytes of the file, or of every file in the folder. */
  size: number;
  deletedAt: string;
  /** Who deleted it (the name as it was then); null when the user is unknown. */
  deletedBy: { userId: number | null; username: string } | null;
  /** When the daily purge removes it; null while the retention is 0 (kept until emptied). */
  expiresAt: string | null;
}

export interface TrashPage {
  items: TrashItem[];
  nextCursor: string | null;
  /** The share's retention in days; 0 keeps items until the bin is emptied. */
  retentionDays: number;
}

export interface TrashQuery {
  cursor?: string;
  limit?: number;
}

export interface TrashItemsRequest {
  ids: number[];
  /** Restore only: what happens when the original name is taken again (default rename). */
  onConflict?: OnConflict;
}

export const maxTrashLimit = 1000;

export const trashItem = Joi.object<TrashItem, true>({
  id: id().required(),
  name: Joi.string().required(),
  originalPath: Joi.string().required(),
  type: Joi.string().valid('file', 'folder', 'symlink', 'other').required(),
  size: Joi.number().integer().min(0).required(),
  deletedAt: isoTime().required(),
  deletedBy: Joi.object({ userId: id().allow(null).required(), username: Joi.string().required() })
    .allow(null)
    .required(),
  expiresAt: isoTime().allow(null).required(),
}).id('TrashItem');

export const trashPage = Joi.object<TrashPage, true>({
  items: Joi.array().items(trashItem).required(),
  nextCursor: Joi.string().allow(null).required(),
  retentionDays: Joi.number().integer().min(0).required(),
}).id('TrashPage');

export const trashItemsRequest = Joi.object<TrashItemsRequest, true>({
  ids: Joi.array().items(id()).min(1).max(maxTrashLimit).unique().required(),
  onConflict: onConflictSchema(),
}).id('TrashItemsRequest');

const itemsErrors = ['fs.share.not_found', 'fs.share.read_only', 'fs.trash.item_not_found', 'fs.trash.unavailable', 'fs.entry.not_found'] as const;

export const trashRoutes = {
  list: defineRoute({
    id: 'trash.list',
    method: 'GET',
    path: '/api/files/{shareId}/trash',
    access: 'user',
    summary: "The share's recycle bin, newest first, with the share's retention; needs read access",
    params: shareIdParams,
    query: Joi.object<TrashQuery, true>({ cursor: Joi.string().max(512), limit: Joi.number().integer().min(1).max(maxTrashLimit) }),
    status: 200,
    response: trashPage,
    errors: ['fs.share.not_found', 'fs.cursor.invalid'],
  }),
  restore: defineRoute({
    id: 'trash.restore',
    method: 'POST',
    path: '/api/files/{shareId}/trash/restore',
    access: 'user',
    summary: 'Puts items back where they were as a job, recreating missing folders; onConflict defaults to rename; needs write access',
    params: shareIdParams,
    body: trashItemsRequest,
    status: 202,
    response: jobSchema,
    errors: [...itemsErrors],
  }),
  remove: defineRoute({
    id: 'trash.remove',
    method: 'POST',
    path: '/api/files/{shareId}/trash/delete',
    access: 'user',
    summary: 'Deletes the given items for good as a job; needs write access',
    params: shareIdParams,
    body: trashItemsRequest,
    status: 202,
    response: jobSchema,
    errors: [...itemsErrors],
  }),
  empty: defineRoute({
    id: 'trash.empty',
    method: 'POST',
    path: '/api/files/{shareId}/trash/empty',
    access: 'user',
    summary: 'Deletes everything in the bin for good as a job; needs write access',
    params: shareIdParams,
    status: 202,
    response: jobSchema,
    errors: ['fs.share.not_found', 'fs.share.read_only', 'fs.trash.unavailable', 'fs.entry.not_found'],
  }),
};
