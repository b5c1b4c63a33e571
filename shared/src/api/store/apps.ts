import Joi from 'joi';
import { appManifestSchema, type AppManifest } from '../apps/app-manifest.ts';
import { isoTime } from '../common.ts';

/** The Store's apps as a catalog offers them: the list's rows and one app's page with its versions. */

export interface StoreAppSummary {
  catalog: string;
  verified: boolean;
  appId: string;
  name: string;
  description: string;
  author: string;
  version: string;
  installedVersion: string | null;
}

export interface StoreAppList {
  apps: StoreAppSummary[];
}

export interface StoreAppVersion {
  version: string;
  dataVersion: number;
  minBoxVersion: string;
  publishedAt: string;
  /** Whether this box is new enough for it. */
  runs: boolean;
}

export interface StoreAppDetails {
  catalog: string;
  verified: boolean;
  appId: string;
  /** The newest version this box can run (the newest of all when none runs here). */
  version: string;
  runs: boolean;
  manifest: AppManifest;
  homepage: string | null;
  source: string | null;
  icons: string[];
  screenshots: string[];
  installedVersion: string | null;
  versions: StoreAppVersion[];
}

export const storeAppSummarySchema = Joi.object<StoreAppSummary, true>({
  catalog: Joi.string().required(),
  verified: Joi.boolean().required(),
  appId: Joi.string().required(),
  name: Joi.string().required(),
  description: Joi.string().allow('').required(),
  author: Joi.string().allow('').required(),
  version: Joi.string().required(),
  installedVersion: Joi.string().allow(null).required(),
});

export const storeAppDetailsSchema = Joi.object<StoreAppDetails, true>({
  catalog: Joi.string().required(),
  verified: Joi.boolean().required(),
  appId: Joi.string().required(),
  version: Joi.string().required(),
  runs: Joi.boolean().required(),
  manifest: appManifestSchema.required(),
  homepage: Joi.string().allow(null).required(),
  source: Joi.string().allow(null).required(),
  icons: Joi.array().items(Joi.string()).required(),
  screenshots: Joi.array().items(Joi.string()).required(),
  installedVersion: Joi.string().allow(null).required(),
  versions: Joi.array()
    .items(
      Joi.object<StoreAppVersion, true>({
        version: Joi.string().required(),
        dataVersion: Joi.number().integer().required(),
        minBoxVersion: Joi.string().required(),
        publishedAt: isoTime().required(),
        runs: Joi.boolean().required(),
      }),
    )
    .required(),
}).id('StoreAppDetails');
