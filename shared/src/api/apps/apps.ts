import Joi from 'joi';
import { appIdPattern, appManifestSchema, appPermissions, type AppManifest, type AppPermission, type StorageRequest } from './app-manifest.ts';
import { appPackageRoutes } from './app-packages.ts';
import { appStorageRoutes, type AppStorageMapping } from './app-storage.ts';
import { hostToolErrors, id, isoTime, quotaBytes } from '../common.ts';
import { jobSchema } from '../jobs/jobs.ts';
import { defineRoute } from '../route.ts';

/** Installed apps: what an administrator sees and changes. */
export type AppState = 'enabled' | 'disabled';
export type AppLogLevel = 'info' | 'debug';
/** automatic installs updates, notify only tells administrators, none ignores them; null follows the box's setting. */
export type AppUpdatePolicy = 'automatic' | 'notify' | 'none' | null;

export interface AppStorage extends StorageRequest {
  mapping: AppStorageMapping | null;
}

export interface AppDetails {
  id: string;
  manifest: AppManifest;
  state: AppState;
  /** The app's own system account, which owns its data and runs its backend. */
  uid: number;
  /** Where the app's data lives: a dataset `<pool>/apps/<id>` (or a folder on a development machine). */
  dataset: string;
  /** Permissions the manifest asks for, each granted or revoked by an administrator (granted at install). */
  permissions: { granted: AppPermission[]; revoked: AppPermission[] };
  storage: AppStorage[];
  logLevel: AppLogLevel;
  updatePolicy: AppUpdatePolicy;
  /** The version a rollback returns to; null when there is none. */
  previousVersion: string | null;
  /** The catalog the app came from, which alone brings its updates (its id); null: uploaded by hand. */
  source: string | null;
  /** How much the app's volume (package, data and the snapshot kept for a rollback) may hold. */
  quota: AppQuota;
  installedAt: string;
  updatedAt: string;
}

export interface AppQuota {
  /** An administrator's own quota: null follows the default, 0 means none. */
  bytes: number | null;
  /** The app's default: its manifest's `quotaMiB`, else the house default (docs/apps.md). */
  defaultBytes: number;
  /** The quota in force; null for none. */
  effectiveBytes: number | null;
  /** What the volume holds now; null where it is not measured (a folder on a development machine). */
  usedBytes: number | null;
}

/** How backends' limits are held: a systemd scope (a box), a cgroup of the daemon's own (development). */
export type BackendLimitsEnforcer = 'systemd' | 'cgroup2' | 'cgroup1';

/** The limits every app's backend runs under, all its processes together. */
export interface AppBackendLimits {
  /** null: this machine does not enforce them, for `reason`. */
  enforcedBy: BackendLimitsEnforcer | null;
  /** notRoot: the daemon does not run as root; noControllers: no cgroup with memory, pids and cpu it may write. */
  reason: 'notRoot' | 'noControllers' | null;
  memoryBytes: number;
  tasks: number;
  /** 100 is one core. */
  cpuPercent: number;
}

export interface AdminAppList {
  /** The pool every app's data lives on; null until the first app is installed. */
  pool: string | null;
  apps: AppDetails[];
  backendLimits: AppBackendLimits;
  /** Whether apps' quotas hold here: on ZFS datasets yes, on a development machine's folders no. */
  quotaEnforced: boolean;
}

export interface AppQuotaRequest {
  /** At least 1 MiB, 0 for none, null for the app's default. */
  quotaBytes: number | null;
}

export interface UpdateAppRequest {
  enabled: boolean;
}

export interface AppGrantSubject {
  users: number[];
  groups: number[];
}

export interface AppGrants extends AppGrantSubject {
  appId: string;
  /** Every active user and whether they may use the app, and why. */
  result: { userId: number; username: string; allowed: boolean; via: 'admin' | 'user' | 'group' | null }[];
}

export interface AppPermissionsRequest {
  /** true grants, false revokes; permissions not listed stay as they are. */
  permissions: Partial<Record<AppPermission, boolean>>;
}

const appIdSchema = Joi.string().max(128).pattern(appIdPattern, 'app id');
const appIdParams = Joi.object<{ appId: string }, true>({ appId: appIdSchema.required() });
const permissionList = Joi.array().items(Joi.string().valid(...appPermissions));
const mappingSchema = Joi.object<AppStorageMapping, true>({
  shareId: id().required(),
  path: Joi.string().max(4096).allow('').required(),
  access: Joi.string().valid('read', 'readWrite').required(),
}).id('AppStorageMapping');

export const appDetailsSchema = Joi.object<AppDetails, true>({
  id: Joi.string().required(),
  manifest: appManifestSchema.required(),
  state: Joi.string().valid('enabled', 'disabled').required(),
  uid: Joi.number().integer().required(),
  dataset: Joi.string().required(),
  permissions: Joi.object({ granted: permissionList.required(), revoked: permissionList.required() }).required(),
  storage: Joi.array()
    .items(
      Joi.object<AppStorage, true>({
        storageId: Joi.string().required(),
        purpose: Joi.string().required(),
        access: Joi.string().valid('read', 'readWrite').required(),
        mapping: mappingSchema.allow(null).required(),
      }).id('AppStorage'),
    )
    .required(),
  logLevel: Joi.string().valid('info', 'debug').required(),
  updatePolicy: Joi.string().valid('automatic', 'notify', 'none').allow(null).required(),
  previousVersion: Joi.string().allow(null).required(),
  source: Joi.string().allow(null).required(),
  quota: Joi.object<AppQuota, true>({
    bytes: Joi.number().integer().min(0).allow(null).required(),
    defaultBytes: Joi.number().integer().min(0).required(),
    effectiveBytes: Joi.number().integer().min(0).allow(null).required(),
    usedBytes: Joi.number().integer().min(0).allow(null).required(),
  })
    .id('AppQuota')
    .required(),
  installedAt: isoTime().required(),
  updatedAt: isoTime().required(),
}).id('AppDetails');

const backendLimitsSchema = Joi.object<AppBackendLimits, true>({
  enforcedBy: Joi.string().valid('systemd', 'cgroup2', 'cgroup1').allow(null).required(),
  reason: Joi.string().valid('notRoot', 'noControllers').allow(null).required(),
  memoryBytes: Joi.number().integer().min(0).required(),
  tasks: Joi.number().integer().min(0).required(),
  cpuPercent: Joi.number().integer().min(0).required(),
}).id('AppBackendLimits');

export const adminAppListSchema = Joi.object<AdminAppList, true>({
  pool: Joi.string().allow(null).required(),
  apps: Joi.array().items(appDetailsSchema).required(),
  backendLimits: backendLimitsSchema.required(),
  quotaEnforced: Joi.boolean().required(),
}).id('AdminAppList');

const appQuotaRequestSchema = Joi.object<AppQuotaRequest, true>({
  quotaBytes: quotaBytes(),
}).id('AppQuotaRequest');

const appGrantsSchema = Joi.object<AppGrants, true>({
  appId: Joi.string().required(),
  users: Joi.array().items(id()).required(),
  groups: Joi.array().items(id()).required(),
  result: Joi.array()
    .items(
      Joi.object({
        userId: id().required(),
        username: Joi.string().required(),
        allowed: Joi.boolean().required(),
        via: Joi.string().valid('admin', 'user', 'group').allow(null).required(),
      }),
    )
    .required(),
}).id('AppGrants');

/** Valid this long; a window asks again before `expiresAt`. */
export const appTokenMinutes = 5;
export type AppTokenKind = 'host' | 'backend';

export interface AppTokenRequest {
  /** host: for the daemon's API for apps (/api/app/**), kept by the desktop; backend: for the app's backend. */
  kind: AppTokenKind;
  /** The window the token is for: a token of one window is no token of another. */
  instanceId: string;
}

/** A window's instance id, made by the desktop when it opens the window. */
export const appInstanceIdPattern = /^[A-Za-z0-9_-]{8,64}$/;
/**
 * The header a window's page sends with its token on every call (API for apps and backend path):
 * the window it calls as, which must be the window the token was issued for.
 */
export const appInstanceHeader = 'X-Cellar-Instance';

export interface AppToken {
  token: string;
  kind: AppTokenKind;
  expiresAt: string;
}

export const appTokenSchema = Joi.object<AppToken, true>({
  token: Joi.string().required(),
  kind: Joi.string().valid('host', 'backend').required(),
  expiresAt: isoTime().required(),
}).id('AppToken');

const appErrors = ['app.app.not_found'] as const;
const changeErrors = [...appErrors, 'app.app.busy'] as const;

export const appsRoutes = {
  ...appPackageRoutes,
  list: defineRoute({
    id: 'apps.list',
    method: 'GET',
    path: '/api/apps',
    access: 'admin',
    summary: 'Every installed app with its manifest, permissions, account, state, and the app pool; topic apps/admin',
    status: 200,
    response: adminAppListSchema,
    errors: [],
  }),
  update: defineRoute({
    id: 'apps.update',
    method: 'PATCH',
    path: '/api/apps/{appId}',
    access: 'admin',
    summary: 'Switches an app on or off: a disabled app is not served, its backend stops and its tokens end; data and grants stay',
    params: appIdParams,
    body: Joi.object<UpdateAppRequest, true>({ enabled: Joi.boolean().required() }).id('UpdateAppRequest'),
    status: 200,
    response: appDetailsSchema,
    errors: changeErrors,
  }),
  uninstall: defineRoute({
    id: 'apps.uninstall',
    method: 'DELETE',
    path: '/api/apps/{appId}',
    access: 'admin',
    summary: 'Uninstalls an app as a job: data=keep leaves its dataset for a later install, data=delete destroys it with its snapshots',
    params: appIdParams,
    query: Joi.object<{ data: 'keep' | 'delete' }, true>({ data: Joi.string().valid('keep', 'delete').required() }),
    status: 202,
    response: jobSchema,
    errors: [...changeErrors, ...hostToolErrors],
  }),
  rollback: defineRoute({
    id: 'apps.rollback',
    method: 'POST',
    path: '/api/apps/{appId}/rollback',
    access: 'admin',
    summary: 'Returns to the version before the last update and restores the snapshot taken before it, as a job',
    params: appIdParams,
    status: 202,
    response: jobSchema,
    errors: [...changeErrors, 'app.app.no_previous', ...hostToolErrors],
  }),
  grants: defineRoute({
    id: 'apps.grants',
    method: 'GET',
    path: '/api/apps/{appId}/grants',
    access: 'admin',
    summary: 'Who may use the app: the users and groups granted app:<id>, and each user’s result',
    params: appIdParams,
    status: 200,
    response: appGrantsSchema,
    errors: appErrors,
  }),
  setGrants: defineRoute({
    id: 'apps.setGrants',
    method: 'PUT',
    path: '/api/apps/{appId}/grants',
    access: 'admin',
    summary: 'Replaces who may use the app (the built-in group users means everybody; none, administrators only); pushed to the desktops at once',
    params: appIdParams,
    body: Joi.object<AppGrantSubject, true>({
      users: Joi.array().items(id()).unique().max(10_000).required(),
      groups: Joi.array().items(id()).unique().max(10_000).required(),
    }).id('AppGrantsRequest'),
    status: 200,
    response: appGrantsSchema,
    errors: [...appErrors, 'fs.grant.subject_not_found'],
  }),
  icon: defineRoute({
    id: 'apps.icon',
    method: 'GET',
    path: '/api/apps/{appId}/icon',
    access: 'user',
    summary: 'The app’s icon, to those who may use it, sandboxed',
    params: appIdParams,
    status: 200,
    response: { raw: true, contentType: 'image/svg+xml' },
    errors: appErrors,
  }),
  setLogLevel: defineRoute({
    id: 'apps.setLogLevel',
    method: 'PUT',
    path: '/api/apps/{appId}/log-level',
    access: 'admin',
    summary:
      'debug on or off; info, warn and error always reach the log store. The topic apps/<appId> (the spec’s apps topic, one per app) carries it to the app’s windows',
    params: appIdParams,
    body: Joi.object<{ level: AppLogLevel }, true>({ level: Joi.string().valid('info', 'debug').required() }).id('AppLogLevelRequest'),
    status: 200,
    response: appDetailsSchema,
    errors: appErrors,
  }),
  setPermissions: defineRoute({
    id: 'apps.setPermissions',
    method: 'PUT',
    path: '/api/apps/{appId}/permissions',
    access: 'admin',
    summary: 'Grants or revokes permissions the manifest asks for; a revoked one stays revoked across updates',
    params: appIdParams,
    body: Joi.object<AppPermissionsRequest, true>({
      permissions: Joi.object(Object.fromEntries(appPermissions.map((p) => [p, Joi.boolean()])))
        .min(1)
        .required(),
    }).id('AppPermissionsRequest'),
    status: 200,
    response: appDetailsSchema,
    errors: [...appErrors, 'app.permission.not_requested'],
  }),
  setUpdatePolicy: defineRoute({
    id: 'apps.setUpdatePolicy',
    method: 'PUT',
    path: '/api/apps/{appId}/update-policy',
    access: 'admin',
    summary: 'automatic, notify, none, or null to follow the box’s policy',
    params: appIdParams,
    body: Joi.object<{ policy: AppUpdatePolicy }, true>({
      policy: Joi.string().valid('automatic', 'notify', 'none').allow(null).required(),
    }).id('AppUpdatePolicyRequest'),
    status: 200,
    response: appDetailsSchema,
    errors: appErrors,
  }),
  setQuota: defineRoute({
    id: 'apps.setQuota',
    method: 'PUT',
    path: '/api/apps/{appId}/quota',
    access: 'admin',
    summary: 'How much the app’s volume may hold: at least 1 MiB, 0 for none, null for the app’s default (its manifest’s, else the house’s)',
    description:
      'On ZFS it is the quota of the app’s dataset, the snapshot kept for a rollback included; a quota below what the volume holds now is refused. On a development machine’s folders it is kept but not enforced (quotaEnforced in GET /api/apps).',
    params: appIdParams,
    body: appQuotaRequestSchema,
    status: 200,
    response: appDetailsSchema,
    errors: [...changeErrors, 'app.quota.below_used', 'storage.command.failed', ...hostToolErrors],
  }),
  issueToken: defineRoute({
    id: 'apps.issueToken',
    method: 'POST',
    path: '/api/apps/{appId}/tokens',
    access: 'user',
    summary: 'A token for one window of an app the caller may use, bound to the user, the session, the app and the window; valid 5 minutes',
    description:
      'kind host is accepted by the API for apps (/api/app/**) and stays in the desktop, which hands it to the window with postMessage; kind backend is for the app’s backend. Tokens end at sign-out, when the app is disabled or uninstalled, and when the user’s sessions end. ' +
      'A window keeps at most 16 live tokens of a kind (its oldest make room); a user at 1000 live tokens, or the box at 50000, is refused with app.token.limit until some expire.',
    params: appIdParams,
    body: Joi.object<AppTokenRequest, true>({
      kind: Joi.string().valid('host', 'backend').required(),
      instanceId: Joi.string().pattern(appInstanceIdPattern, 'window instance id').required(),
    }).id('AppTokenRequest'),
    status: 200,
    response: appTokenSchema,
    errors: [...appErrors, 'app.backend.missing', 'app.token.limit'],
  }),
  ...appStorageRoutes(appIdSchema, appDetailsSchema),
  closeWindow: defineRoute({
    id: 'apps.closeWindow',
    method: 'DELETE',
    path: '/api/apps/{appId}/tokens',
    access: 'user',
    summary: 'The desktop closed a window of the app: the tokens the caller’s session holds for that window (query instanceId) end at once',
    description: 'Answers 204 also when the window holds no token any more (expired, or closed before). Windows of other sessions are not touched.',
    params: appIdParams,
    query: Joi.object<{ instanceId: string }, true>({
      instanceId: Joi.string().pattern(appInstanceIdPattern, 'window instance id').required(),
    }),
    status: 204,
    errors: [],
  }),
};
