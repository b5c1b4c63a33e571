import Joi from 'joi';
import { id, pathErrors } from '../common.ts';
import { defineRoute } from '../route.ts';

/** Storage mappings: an administrator gives an app's storage request an existing folder of a share. */

/** The folder mapped to one storage request of an app. */
export interface AppStorageMapping {
  shareId: number;
  /** A folder of the share, relative to its root (`''` is the share itself). */
  path: string;
  access: 'read' | 'readWrite';
}

export type AppStorageMappingRequest = AppStorageMapping;

const storageIdParam = Joi.string().pattern(/^[a-z][a-z0-9-]{0,39}$/, 'storage id');

/**
 * The routes, given the schemas of apps.ts (which spreads them into its table): built by a function
 * so that imports run one way, apps.ts -> app-storage.ts.
 */
export function appStorageRoutes<Details>(appId: Joi.StringSchema, appDetailsSchema: Joi.ObjectSchema<Details>) {
  const params = Joi.object<{ appId: string; storageId: string }, true>({ appId: appId.required(), storageId: storageIdParam.required() });
  return {
    mapStorage: defineRoute({
      id: 'apps.mapStorage',
      method: 'PUT',
      path: '/api/apps/{appId}/storage/{storageId}',
      access: 'admin',
      summary: 'Maps an existing folder of a share to a storage request, replacing an earlier mapping; read, or readWrite when the request asks for it',
      description:
        'The folder keeps its rights, snapshots and recycle bin; the app’s account gets an ACL entry on it (r-x or rwx, inherited by new entries) while the app is on and holds the files permission. The mapping survives updates; uninstalling removes it and leaves the folder.',
      params,
      body: Joi.object<AppStorageMappingRequest, true>({
        shareId: id().required(),
        path: Joi.string().max(4096).allow('').required(),
        access: Joi.string().valid('read', 'readWrite').required(),
      }).id('AppStorageMappingRequest'),
      status: 200,
      response: appDetailsSchema,
      errors: ['app.app.not_found', 'app.storage.not_found', 'app.mapping.invalid', ...pathErrors, 'fs.entry.not_found', 'fs.entry.not_folder'],
    }),
    unmapStorage: defineRoute({
      id: 'apps.unmapStorage',
      method: 'DELETE',
      path: '/api/apps/{appId}/storage/{storageId}',
      access: 'admin',
      summary: 'Removes the mapping of a storage request and the app’s ACL entries; the folder and its files stay',
      params,
      status: 200,
      response: appDetailsSchema,
      errors: ['app.app.not_found', 'app.storage.not_found'],
    }),
  };
}
