import Joi from 'joi';
import { appIdPattern, semverPattern } from '../apps/app-manifest.ts';
import { appPackagePreviewSchema } from '../apps/app-packages.ts';
import { hostToolErrors, id, isoTime } from '../common.ts';
import { jobSchema } from '../jobs/jobs.ts';
import { defineRoute } from '../route.ts';
import { storeAppDetailsSchema, storeAppSummarySchema, type StoreAppList } from './apps.ts';
import { iconNamePattern, screenshotNamePattern } from './catalog-index.ts';

/** The Store (spec 4.11): catalogs from git, their apps, and the box's update settings. */

export type StorePolicy = 'automatic' | 'notify' | 'none';
export type StoreChannel = 'stable' | 'beta';

export interface StoreSettings {
  policy: StorePolicy;
  /** Daily check time HH:mm in the box's time zone. */
  dailyTime: string;
  channel: StoreChannel;
  /** This box's own delay after the daily time (chosen once, kept), so boxes do not all ask at once. */
  delayMinutes: number;
  nextCheckAt: string;
}

export type StoreSettingsRequest = Partial<Pick<StoreSettings, 'policy' | 'dailyTime' | 'channel'>>;

/** The last failure of a catalog's fetch: the last verified copy, if there is one, stays in use meanwhile. */
export interface CatalogError {
  code: string;
  /** The code's parameters (store.fetch.failed: `reason`, `unreachable` when no connection to the server could be made). */
  params: Record<string, string | number>;
  /** The tool's own words, for support. */
  detail: string;
  at: string;
}

export interface CatalogInfo {
  key: number;
  /** The id in catalog-app paths. */
  id: string;
  name: string;
  url: string;
  builtIn: boolean;
  /** Project catalogs are signed and verified; custom ones are shown as unverified. */
  verified: boolean;
  enabled: boolean;
  /** Whether a read token is set (never the token itself). */
  readToken: boolean;
  state: 'new' | 'fetching' | 'ok' | 'failed';
  lastError: CatalogError | null;
  lastFetchAt: string | null;
  /** When the copy in use was verified, and its commit. */
  verifiedAt: string | null;
  commit: string | null;
  apps: number;
  /** SSH catalogs: the box's deploy key to add to the repository, and the host key pinned on the first fetch. */
  deployKey: string | null;
  hostKey: string | null;
}

export interface StoreUpdate {
  appId: string;
  catalog: string;
  installedVersion: string;
  version: string;
  policy: StorePolicy;
}

export interface StoreState {
  settings: StoreSettings;
  catalogs: CatalogInfo[];
  updates: StoreUpdate[];
}

export interface AddCatalogRequest {
  url: string;
  name?: string;
}

export interface UpdateCatalogRequest {
  enabled?: boolean;
  /** `user:token` sets it; an empty string removes it. */
  readToken?: string;
}

export const storeLimits = { name: 100, url: 500, token: 500 } as const;

export const dailyTimePattern = /^([01]\d|2[0-3]):[0-5]\d$/;
/**
 * https://host/path; the SSH form git@host:owner/repository.git; or git's ssh://[user@]host[:port]/path,
 * for a server on another port (a self-hosted Gitea on 2222). http:// only in development mode, for tests.
 * Hosts start with a letter or digit, so no address reads as an ssh option.
 */
export const catalogUrlPattern =
  /^(https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[A-Za-z0-9._~%/-]*)?|[a-z_][a-z0-9_-]{0,31}@[A-Za-z0-9][A-Za-z0-9.-]*:[A-Za-z0-9._/-]+\.git|ssh:\/\/([a-z_][a-z0-9_-]{0,31}@)?[A-Za-z0-9][A-Za-z0-9.-]*(:\d{1,5})?\/[A-Za-z0-9._~/-]+)$/;
export const catalogIdPattern = /^[a-z0-9][a-z0-9-]{0,62}$/;

const policy = () => Joi.string().valid('automatic', 'notify', 'none');
const channel = () => Joi.string().valid('stable', 'beta');

const settingsSchema = Joi.object<StoreSettings, true>({
  policy: policy().required(),
  dailyTime: Joi.string().pattern(dailyTimePattern).required(),
  channel: channel().required(),
  delayMinutes: Joi.number().integer().min(0).max(59).required(),
  nextCheckAt: isoTime().required(),
}).id('StoreSettings');

const catalogInfoSchema = Joi.object<CatalogInfo, true>({
  key: id().required(),
  id: Joi.string().required(),
  name: Joi.string().required(),
  url: Joi.string().required(),
  builtIn: Joi.boolean().required(),
  verified: Joi.boolean().required(),
  enabled: Joi.boolean().required(),
  readToken: Joi.boolean().required(),
  state: Joi.string().valid('new', 'fetching', 'ok', 'failed').required(),
  lastError: Joi.object<CatalogError, true>({
    code: Joi.string().required(),
    params: Joi.object().pattern(Joi.string(), [Joi.string(), Joi.number()]).required(),
    detail: Joi.string().allow('').required(),
    at: isoTime().required(),
  })
    .allow(null)
    .required(),
  lastFetchAt: isoTime().allow(null).required(),
  verifiedAt: isoTime().allow(null).required(),
  commit: Joi.string().allow(null).required(),
  apps: Joi.number().integer().min(0).required(),
  deployKey: Joi.string().allow(null).required(),
  hostKey: Joi.string().allow(null).required(),
}).id('CatalogInfo');

export const storeStateSchema = Joi.object<StoreState, true>({
  settings: settingsSchema.required(),
  catalogs: Joi.array().items(catalogInfoSchema).required(),
  updates: Joi.array()
    .items(
      Joi.object<StoreUpdate, true>({
        appId: Joi.string().required(),
        catalog: Joi.string().required(),
        installedVersion: Joi.string().required(),
        version: Joi.string().required(),
        policy: policy().required(),
      }),
    )
    .required(),
}).id('StoreState');

const keyParams = Joi.object<{ key: number }, true>({ key: id().required() });
const catalogId = () => Joi.string().pattern(catalogIdPattern, 'catalog id');
const appParams = Joi.object<{ catalog: string; appId: string }, true>({
  catalog: catalogId().required(),
  appId: Joi.string().pattern(appIdPattern, 'app id').required(),
});
const versionParams = Joi.object<{ catalog: string; appId: string; version: string }, true>({
  catalog: catalogId().required(),
  appId: Joi.string().pattern(appIdPattern, 'app id').required(),
  version: Joi.string().pattern(semverPattern, 'version').required(),
});
const screenshotParams = Joi.object<{ catalog: string; appId: string; version: string; name: string }, true>({
  catalog: catalogId().required(),
  appId: Joi.string().pattern(appIdPattern, 'app id').required(),
  version: Joi.string().pattern(semverPattern, 'version').required(),
  name: Joi.string().pattern(screenshotNamePattern, 'screenshot name').required(),
});

const catalogErrors = ['store.catalog.not_found'] as const;
const appErrors = ['store.catalog.not_found', 'store.catalog.not_fetched', 'store.app.not_found'] as const;
const imageErrors = [...appErrors, 'store.version.not_found', 'store.image.not_found', 'store.package.hash_mismatch'] as const;
/** Catalog images are sent as files: in ranges and revalidated by ETag or date. */
const imageHeaders = ['Range', 'If-Range', 'If-None-Match', 'If-Modified-Since'] as const;
const imageAnswerErrors = [...imageErrors, 'fs.range.not_satisfiable'] as const;

export const storeRoutes = {
  state: defineRoute({
    id: 'store.state',
    method: 'GET',
    path: '/api/store',
    access: 'admin',
    summary: 'Settings with the next check time, every catalog with its state and last error, and newer versions of installed apps; topic store/admin',
    status: 200,
    response: storeStateSchema,
    errors: [],
  }),
  apps: defineRoute({
    id: 'store.apps',
    method: 'GET',
    path: '/api/store/apps',
    access: 'admin',
    summary: 'Apps of the enabled catalogs (or of one) at the newest version this box can run, whose id, name, description or author contains q',
    query: Joi.object<{ catalog?: string; q?: string }, true>({ catalog: catalogId(), q: Joi.string().max(100).allow('') }),
    status: 200,
    response: Joi.object<StoreAppList, true>({ apps: Joi.array().items(storeAppSummarySchema).required() }).id('StoreAppList'),
    errors: catalogErrors,
  }),
  addCatalog: defineRoute({
    id: 'store.addCatalog',
    method: 'POST',
    path: '/api/store/catalogs',
    access: 'admin',
    summary:
      'Adds a custom catalog: https:// is fetched at once as a job; the SSH forms (git@host:owner/repository.git, ssh://[user@]host[:port]/path) make a deploy key to add to the repository, then the catalog is fetched',
    body: Joi.object<AddCatalogRequest, true>({
      url: Joi.string().max(storeLimits.url).pattern(catalogUrlPattern, 'catalog address').required(),
      name: Joi.string().min(1).max(storeLimits.name),
    }).id('AddCatalogRequest'),
    status: 200,
    response: catalogInfoSchema,
    errors: ['store.catalog.exists', 'store.catalog.url_refused', ...hostToolErrors],
  }),
  app: defineRoute({
    id: 'store.app',
    method: 'GET',
    path: '/api/store/catalogs/{catalog}/apps/{appId}',
    access: 'admin',
    summary: 'The newest version of a catalog app for this box with manifest, screenshots, homepage and source link, and every published version',
    params: appParams,
    status: 200,
    response: storeAppDetailsSchema,
    errors: appErrors,
  }),
  icon: defineRoute({
    id: 'store.icon',
    method: 'GET',
    path: '/api/store/catalogs/{catalog}/apps/{appId}/{version}/icon',
    access: 'admin',
    summary: "An icon of a catalog app's version, checked against the index; served with Content-Security-Policy: default-src 'none'; sandbox and nosniff",
    params: versionParams,
    query: Joi.object<{ name?: string }, true>({ name: Joi.string().pattern(iconNamePattern, 'icon name') }),
    status: 200,
    response: { raw: true, contentType: 'image/svg+xml' },
    headers: imageHeaders,
    errors: imageAnswerErrors,
  }),
  package: defineRoute({
    id: 'store.package',
    method: 'POST',
    path: '/api/store/catalogs/{catalog}/apps/{appId}/{version}/package',
    access: 'admin',
    summary:
      "Takes a version's package from the box's verified copy, checks it like an upload and against the index, and answers its preview; install it with POST /api/apps/packages/{packageId}/install",
    params: versionParams,
    status: 200,
    response: appPackagePreviewSchema,
    errors: [
      ...imageErrors,
      'store.package.download_failed',
      'app.package.invalid',
      'app.package.entry_refused',
      'app.package.id_reserved',
      'app.package.icon_invalid',
      'app.package.box_too_old',
      'app.package.downgrade_unsupported',
    ],
  }),
  screenshot: defineRoute({
    id: 'store.screenshot',
    method: 'GET',
    path: '/api/store/catalogs/{catalog}/apps/{appId}/{version}/screenshots/{name}',
    access: 'admin',
    summary: 'A screenshot (PNG, JPEG or WebP) of a catalog app, checked against the index; same security headers as the icon',
    params: screenshotParams,
    status: 200,
    response: { raw: true, contentType: ['image/png', 'image/jpeg', 'image/webp'] },
    headers: imageHeaders,
    errors: imageAnswerErrors,
  }),
  updateCatalog: defineRoute({
    id: 'store.updateCatalog',
    method: 'PATCH',
    path: '/api/store/catalogs/{key}',
    access: 'admin',
    summary: 'Switches a catalog on (fetched at once) or off; sets (user:token) or removes (empty) the read token for private packages and images',
    params: keyParams,
    body: Joi.object<UpdateCatalogRequest, true>({
      enabled: Joi.boolean(),
      readToken: Joi.string()
        .max(storeLimits.token)
        .pattern(/^[^:\s]+:\S+$/, 'user:token')
        .allow(''),
    })
      .min(1)
      .id('UpdateCatalogRequest'),
    status: 200,
    response: catalogInfoSchema,
    errors: catalogErrors,
  }),
  removeCatalog: defineRoute({
    id: 'store.removeCatalog',
    method: 'DELETE',
    path: '/api/store/catalogs/{key}',
    access: 'admin',
    summary: 'Removes a custom catalog and its copy; installed apps stay, without more updates from it',
    params: keyParams,
    status: 204,
    errors: [...catalogErrors, 'store.catalog.built_in'],
  }),
  sync: defineRoute({
    id: 'store.sync',
    method: 'POST',
    path: '/api/store/catalogs/{key}/sync',
    access: 'admin',
    summary: 'Fetches one catalog as a job; a failure keeps the last verified copy and is shown with the catalog',
    params: keyParams,
    status: 202,
    response: jobSchema,
    errors: catalogErrors,
  }),
  check: defineRoute({
    id: 'store.check',
    method: 'POST',
    path: '/api/store/check',
    access: 'admin',
    summary: 'Fetches every enabled catalog, installs automatic updates and announces the others to administrators, as a job',
    status: 202,
    response: jobSchema,
    errors: [],
  }),
  settings: defineRoute({
    id: 'store.settings',
    method: 'PUT',
    path: '/api/store/settings',
    access: 'admin',
    summary: 'Update policy, daily check time (HH:mm in the box’s time zone) and channel; a new channel fetches every catalog at once',
    body: Joi.object<StoreSettingsRequest, true>({ policy: policy(), dailyTime: Joi.string().pattern(dailyTimePattern), channel: channel() })
      .min(1)
      .id('StoreSettingsRequest'),
    status: 200,
    response: settingsSchema,
    errors: [],
  }),
};
