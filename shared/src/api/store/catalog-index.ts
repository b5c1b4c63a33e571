import Joi from 'joi';
import { appIdPattern, appManifestSchema, type AppManifest } from '../apps/app-manifest.ts';
import { isoTime } from '../common.ts';

/**
 * The index of a store catalog (`index.json` at the top of the catalog's branch): the one
 * schema of the format that docs/catalogs.md describes. The daemon checks every fetched index
 * with it, and build/scripts/build-catalog.ts writes indexes that pass it.
 */

export const catalogFormat = 1;

/** A file of the catalog's repository, by its path there, with the SHA-256 (hex) of its bytes. */
export interface CatalogFile {
  path: string;
  sha256: string;
}

/** The package of a version: a file of the repository, or an https address outside it. */
export interface CatalogPackage {
  path?: string;
  url?: string;
  sha256: string;
  size: number;
}

export interface CatalogImage extends CatalogFile {
  name: string;
}

export interface CatalogVersion {
  /** The manifest inside the package: version, dataVersion and minBoxVersion are read from it. */
  manifest: AppManifest;
  package: CatalogPackage;
  icons: CatalogImage[];
  screenshots: CatalogImage[];
  publishedAt: string;
}

export interface CatalogApp {
  id: string;
  /** Where the app's source lives, shown as its source link. */
  source: string | null;
  versions: CatalogVersion[];
}

export interface CatalogIndex {
  format: typeof catalogFormat;
  name: string;
  apps: CatalogApp[];
}

/** Limits of an index: a catalog is a list of web apps, not a mirror. */
export const catalogLimits = { apps: 5000, versionsPerApp: 200, screenshots: 10, icons: 4, indexBytes: 32 * 1024 * 1024 } as const;

/** A relative path inside the repository: no leading slash, no `.` or `..` segment, no `.git`. */
const repoPath = () =>
  Joi.string()
    .max(500)
    .pattern(/^(?!\/)(?!.*(^|\/)\.{1,2}(\/|$))(?!\.git(\/|$))[A-Za-z0-9._/-]+$/, 'repository path');
const sha256 = () =>
  Joi.string()
    .pattern(/^[0-9a-f]{64}$/, 'sha256')
    .required();

export const screenshotNamePattern = /^[A-Za-z0-9_-]{1,60}\.(png|jpg|jpeg|webp)$/;
export const iconNamePattern = /^[A-Za-z0-9_-]{1,60}\.svg$/;

const image = (namePattern: RegExp) =>
  Joi.object<CatalogImage, true>({ name: Joi.string().pattern(namePattern).required(), path: repoPath().required(), sha256: sha256() });

export const catalogIndexSchema = Joi.object<CatalogIndex, true>({
  format: Joi.number().valid(catalogFormat).required(),
  name: Joi.string().min(1).max(100).required(),
  apps: Joi.array()
    .items(
      Joi.object<CatalogApp, true>({
        id: Joi.string().pattern(appIdPattern).required(),
        source: Joi.string()
          .uri({ scheme: ['https'] })
          .max(500)
          .allow(null)
          .required(),
        versions: Joi.array()
          .items(
            Joi.object<CatalogVersion, true>({
              manifest: appManifestSchema.required(),
              package: Joi.object<CatalogPackage, true>({
                path: repoPath(),
                url: Joi.string()
                  .uri({ scheme: ['https'] })
                  .max(1000),
                sha256: sha256(),
                size: Joi.number()
                  .integer()
                  .min(1)
                  .max(256 * 1024 * 1024)
                  .required(),
              })
                .xor('path', 'url')
                .required(),
              icons: Joi.array().items(image(iconNamePattern)).min(1).max(catalogLimits.icons).unique('name').required(),
              screenshots: Joi.array().items(image(screenshotNamePattern)).max(catalogLimits.screenshots).unique('name').required(),
              publishedAt: isoTime().required(),
            }),
          )
          .min(1)
          .max(catalogLimits.versionsPerApp)
          .unique((a: CatalogVersion, b: CatalogVersion) => a.manifest.version === b.manifest.version)
          .required(),
      }),
    )
    .max(catalogLimits.apps)
    .unique('id')
    .required(),
}).id('CatalogIndex');
