import Joi from 'joi';
import { hostToolErrors, id, quotaBytes } from '../common.ts';
import { jobSchema } from '../jobs/jobs.ts';
import { defineRoute } from '../route.ts';

const mib = 1024 * 1024;

export interface HomePool {
  name: string;
  /** Healthy and writable: homes can live there. */
  canHoldHomes: boolean;
}

export interface Home {
  /** The home is a share; this is its id. */
  shareId: number;
  /** null once the user was deleted. */
  userId: number | null;
  username: string;
  /** The folder name: the user name, or `<name>.deleted-<uid>` for a deleted user's home. */
  folder: string;
  deleted: boolean;
  dataset: string;
  pool: string;
  usedBytes: number | null;
  /** The user's own quota: null follows the default, 0 means none. */
  quotaBytes: number | null;
  /** The quota in force (refquota); null for none. */
  effectiveQuotaBytes: number | null;
}

export interface HomeOverview {
  /** Where new homes are made; null until one is chosen. */
  homePool: string | null;
  pools: HomePool[];
  /** Quota of homes without their own; null for none. */
  defaultQuotaBytes: number | null;
  homes: Home[];
}

export interface HomeSettingsRequest {
  /** At least 1 MiB, or null for none. */
  defaultQuotaBytes: number | null;
  /** Chooses the home pool while there are no homes yet; afterwards POST /api/homes/move moves them. */
  homePool?: string;
}

export interface HomeQuotaRequest {
  /** At least 1 MiB, 0 for none, null for the default. */
  quotaBytes: number | null;
}

export interface HomeReleaseRequest {
  /** The share that receives the files in a new folder. */
  shareId: number;
}

export interface HomeMoveRequest {
  pool: string;
}

const poolName = () => Joi.string().pattern(/^[A-Za-z][A-Za-z0-9_.:-]{0,62}$/);

const homePool = Joi.object<HomePool, true>({ name: Joi.string().required(), canHoldHomes: Joi.boolean().required() }).id('HomePool');
const home = Joi.object<Home, true>({
  shareId: id().required(),
  userId: id().allow(null).required(),
  username: Joi.string().required(),
  folder: Joi.string().required(),
  deleted: Joi.boolean().required(),
  dataset: Joi.string().required(),
  pool: Joi.string().required(),
  usedBytes: Joi.number().integer().min(0).allow(null).required(),
  quotaBytes: Joi.number().integer().min(0).allow(null).required(),
  effectiveQuotaBytes: Joi.number().integer().min(0).allow(null).required(),
}).id('Home');
export const homeOverview = Joi.object<HomeOverview, true>({
  homePool: Joi.string().allow(null).required(),
  pools: Joi.array().items(homePool).required(),
  defaultQuotaBytes: Joi.number().integer().min(mib).allow(null).required(),
  homes: Joi.array().items(home).required(),
}).id('HomeOverview');

const homeSettingsRequest = Joi.object<HomeSettingsRequest, true>({
  defaultQuotaBytes: Joi.number().integer().min(mib).max(Number.MAX_SAFE_INTEGER).allow(null).required(),
  homePool: poolName(),
}).id('HomeSettingsRequest');
const homeQuotaRequest = Joi.object<HomeQuotaRequest, true>({
  quotaBytes: quotaBytes(),
}).id('HomeQuotaRequest');
const homeReleaseRequest = Joi.object<HomeReleaseRequest, true>({ shareId: id().required() }).id('HomeReleaseRequest');
const homeMoveRequest = Joi.object<HomeMoveRequest, true>({ pool: poolName().required() }).id('HomeMoveRequest');

const shareIdParams = Joi.object<{ shareId: number }, true>({ shareId: id().required() });
const userIdParams = Joi.object<{ userId: number }, true>({ userId: id().required() });
const confirmQuery = Joi.object<{ confirm: string }, true>({ confirm: Joi.string().max(300).required() });

export const homesRoutes = {
  overview: defineRoute({
    id: 'homes.overview',
    method: 'GET',
    path: '/api/homes',
    access: 'admin',
    summary: "Home pool, every pool and whether it can take homes, default quota, every home (deleted users' included)",
    status: 200,
    response: homeOverview,
    errors: [...hostToolErrors],
  }),
  delete: defineRoute({
    id: 'homes.delete',
    method: 'DELETE',
    path: '/api/homes/{shareId}',
    access: 'admin',
    summary: "Deletes a deleted user's home with its files and snapshots; confirm is the folder name",
    params: shareIdParams,
    query: confirmQuery,
    status: 204,
    errors: ['homes.home.not_found', 'homes.home.in_use', 'homes.confirm.mismatch', 'storage.command.failed', ...hostToolErrors],
  }),
  release: defineRoute({
    id: 'homes.release',
    method: 'POST',
    path: '/api/homes/{shareId}/release',
    access: 'admin',
    summary: "Moves a deleted user's files into a new folder of a share as a job, then deletes the home with its recycle bin",
    params: shareIdParams,
    body: homeReleaseRequest,
    status: 202,
    response: jobSchema,
    errors: ['homes.home.not_found', 'homes.home.in_use', 'fs.share.not_found', ...hostToolErrors],
  }),
  move: defineRoute({
    id: 'homes.move',
    method: 'POST',
    path: '/api/homes/move',
    access: 'admin',
    summary: 'Moves every home to another pool as a job; each home is read-only while copied; a failed home stays where it was',
    body: homeMoveRequest,
    status: 202,
    response: jobSchema,
    errors: ['storage.pool.not_found', 'homes.pool.unusable', 'homes.pool.same', ...hostToolErrors],
  }),
  settings: defineRoute({
    id: 'homes.settings',
    method: 'PUT',
    path: '/api/homes/settings',
    access: 'admin',
    summary: 'Default quota (at least 1 MiB, null for none); the home pool while there are no homes yet',
    body: homeSettingsRequest,
    status: 200,
    response: homeOverview,
    errors: ['storage.pool.not_found', 'homes.pool.unusable', 'homes.pool.has_homes', 'storage.command.failed', ...hostToolErrors],
  }),
  setQuota: defineRoute({
    id: 'homes.setQuota',
    method: 'PUT',
    path: '/api/homes/users/{userId}/quota',
    access: 'admin',
    summary: "A user's home quota: at least 1 MiB, 0 for none, null for the default",
    params: userIdParams,
    body: homeQuotaRequest,
    status: 200,
    response: homeOverview,
    errors: ['homes.home.not_found', 'storage.command.failed', ...hostToolErrors],
  }),
};
