import Joi from 'joi';

/**
 * The manifest of an app package (`manifest.json` at the package's root): the one truth of the
 * format. docs/apps.md describes each field; a test checks that it names every one of them.
 */

/** What an app may ask for; an administrator grants or revokes each (PUT /api/apps/{appId}/permissions). */
export const appPermissions = ['notifications', 'files'] as const;
export type AppPermission = (typeof appPermissions)[number];

export type StorageAccess = 'read' | 'readWrite';

export interface StorageRequest {
  /** The app's own name for the folder it asks for; an administrator maps a share folder to it. */
  storageId: string;
  /** Why the app wants it, shown to the administrator. */
  purpose: string;
  access: StorageAccess;
}

export interface AppBackend {
  /** The program and its arguments, run from the package's `backend/` folder; never through a shell. */
  command: string[];
  /** How the backend takes requests: an HTTP server on the listening Unix socket the box hands it as fd 3 (LISTEN_FDS=1). */
  listen: 'unix-socket';
}

export interface AppManifest {
  id: string;
  name: string;
  version: string;
  dataVersion: number;
  minBoxVersion: string;
  description: string;
  author: string;
  homepage: string | null;
  permissions: AppPermission[];
  storage: StorageRequest[];
  backend: AppBackend | null;
  /**
   * Optional: the default quota of the app's volume (package, data and a rollback snapshot) in
   * MiB; without it the house default applies. An administrator may set another.
   */
  quotaMiB?: number;
}

/** The quota of an app whose manifest names none (docs/apps.md). */
export const defaultAppQuotaMiB = 10 * 1024;

/** Reverse domain name: two or more lowercase labels. */
export const appIdPattern = /^[a-z][a-z0-9-]{0,62}(\.[a-z0-9][a-z0-9-]{0,62}){1,7}$/;
/** Ids of the box's own core apps: a package can never take one. */
export const reservedAppIdPrefix = 'org.service.';
/** major.minor.patch with an optional pre-release (`1.4.0-beta.2`). */
export const semverPattern = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(-[0-9A-Za-z.-]{1,40})?$/;

const storageId = Joi.string().pattern(/^[a-z][a-z0-9-]{0,39}$/, 'storage id');

export const storageRequestSchema = Joi.object<StorageRequest, true>({
  storageId: storageId.required(),
  purpose: Joi.string().trim().min(1).max(300).required(),
  access: Joi.string().valid('read', 'readWrite').required(),
});

export const appManifestSchema = Joi.object<AppManifest, true>({
  id: Joi.string().max(128).pattern(appIdPattern, 'app id').required(),
  name: Joi.string().trim().min(1).max(60).required(),
  version: Joi.string().pattern(semverPattern, 'version').required(),
  dataVersion: Joi.number().integer().min(1).max(1_000_000).required(),
  minBoxVersion: Joi.string().pattern(semverPattern, 'version').required(),
  description: Joi.string().trim().max(2000).allow('').required(),
  author: Joi.string().trim().min(1).max(200).required(),
  homepage: Joi.string()
    .uri({ scheme: ['https'] })
    .max(500)
    .allow(null)
    .required(),
  permissions: Joi.array()
    .items(Joi.string().valid(...appPermissions))
    .unique()
    .required(),
  storage: Joi.array().items(storageRequestSchema).max(16).unique('storageId').required(),
  backend: Joi.object<AppBackend, true>({
    command: Joi.array().items(Joi.string().min(1).max(256)).min(1).max(32).required(),
    listen: Joi.string().valid('unix-socket').required(),
  })
    .allow(null)
    .required(),
  quotaMiB: Joi.number()
    .integer()
    .min(16)
    .max(16 * 1024 * 1024),
}).id('AppManifest');

/** Compares two versions by semver precedence: negative when a is older than b. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.split(/-(.*)/s, 2);
    return { nums: core.split('.').map(Number), pre: pre ?? null };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) if ((x.nums[i] ?? 0) !== (y.nums[i] ?? 0)) return (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
  if (x.pre === y.pre) return 0;
  // A pre-release comes before its release.
  if (x.pre === null) return 1;
  if (y.pre === null) return -1;
  const xs = x.pre.split('.');
  const ys = y.pre.split('.');
  for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
    const p = xs[i];
    const q = ys[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}
