import Joi from 'joi';
import { pathErrors } from '../common.ts';
import { defineRoute } from '../route.ts';
import { shareIdParams } from '../shares/shares.ts';

/** Edge lengths a thumbnail is rendered at: list and grid icons, and the preview. */
export const thumbnailSizes = [256, 1024] as const;
export type ThumbnailSize = (typeof thumbnailSizes)[number];
/** Entries on screen only: a larger request is a client asking for a whole folder. */
export const maxThumbnailPaths = 200;

/**
 * ready: cached, fetch it with `v`; queued: being rendered, announced on the topic;
 * unsupported: not an image the box renders (recognised by content) or not a file;
 * failed: the image could not be rendered (too many pixels, damaged, too slow) or is gone.
 */
export type ThumbnailStateName = 'ready' | 'queued' | 'unsupported' | 'failed';
export type ThumbnailReason = 'notImage' | 'notFile' | 'notFound' | 'tooManyPixels' | 'corrupt' | 'timeout';

export interface ThumbnailRequest {
  /** Share-relative paths of the entries on screen. */
  paths: string[];
  size?: ThumbnailSize;
}

export interface ThumbnailState {
  path: string;
  state: ThumbnailStateName;
  /** Version of the file the thumbnail shows (its identity and version): put it in the URL. Null unless ready. */
  v: string | null;
  /** Why it is unsupported or failed; null otherwise. */
  reason: ThumbnailReason | null;
}

export interface ThumbnailStates {
  /** Live topic on which queued thumbnails are announced (`ready` or `failed`). */
  topic: string;
  size: ThumbnailSize;
  items: ThumbnailState[];
}

export interface ThumbnailQuery {
  path: string;
  size?: ThumbnailSize;
  /** The `v` of the states answer; a stale one answers fs.thumbnail.not_found. */
  v?: string;
}

const relPath = () => Joi.string().max(4096);
const size = () => Joi.number().valid(...thumbnailSizes);
const reasons: ThumbnailReason[] = ['notImage', 'notFile', 'notFound', 'tooManyPixels', 'corrupt', 'timeout'];

export const thumbnailState = Joi.object<ThumbnailState, true>({
  path: Joi.string().allow('').required(),
  state: Joi.string().valid('ready', 'queued', 'unsupported', 'failed').required(),
  v: Joi.string().allow(null).required(),
  reason: Joi.string()
    .valid(...reasons)
    .allow(null)
    .required(),
}).id('ThumbnailState');

export const thumbnailsRoutes = {
  get: defineRoute({
    id: 'thumbnails.get',
    method: 'GET',
    path: '/api/files/{shareId}/thumbnail',
    access: 'user',
    summary: 'The cached WebP thumbnail of a file as it is now; cached for a year when `v` is the current version',
    params: shareIdParams,
    headers: ['If-None-Match'],
    query: Joi.object<ThumbnailQuery, true>({
      path: relPath().required(),
      size: size(),
      v: Joi.string().pattern(/^[0-9a-f]{1,64}$/),
    }),
    status: 200,
    response: { raw: true, contentType: 'image/webp' },
    errors: [...pathErrors, 'fs.entry.not_found', 'fs.entry.not_file', 'fs.thumbnail.not_found'],
  }),
  states: defineRoute({
    id: 'thumbnails.states',
    method: 'POST',
    path: '/api/files/{shareId}/thumbnails',
    access: 'user',
    summary: 'States of the thumbnails of the entries on screen; answers at once and queues the missing ones, announced on the returned topic',
    description:
      'The topic is `thumbnails/<shareId>`: subscribe before asking (or ask again once subscribed) so no announcement is missed. A queued entry is announced once, as `ready` with its `v` or `failed` with a reason.',
    params: shareIdParams,
    body: Joi.object<ThumbnailRequest, true>({
      paths: Joi.array().items(relPath().required()).min(1).max(maxThumbnailPaths).unique().required(),
      size: size(),
    }).id('ThumbnailRequest'),
    status: 200,
    response: Joi.object<ThumbnailStates, true>({
      topic: Joi.string().required(),
      size: size().required(),
      items: Joi.array().items(thumbnailState).required(),
    }).id('ThumbnailStates'),
    errors: ['fs.share.not_found', 'fs.path.invalid', 'fs.path.reserved'],
  }),
};
