import Joi from 'joi';
import { pathErrors } from '../common.ts';
import { fileEntry, listQuery, maxUploadBytes, type FileEntry } from '../files/files.ts';
import { defineRoute } from '../route.ts';

/**
 * Files of an app's mapped storage, through the API for apps (host token). Paths are relative to
 * the mapped folder, which the app can never leave: `..`, absolute paths, NUL and links leading
 * out are refused as in the file API. Needs the files permission; writing needs a readWrite mapping.
 */

export interface AppFolderPage {
  /** Entries with paths relative to the mapped folder. */
  items: FileEntry[];
  nextCursor: string | null;
  path: string;
}

const relPath = () => Joi.string().max(4096);
const params = Joi.object<{ storageId: string }, true>({
  storageId: Joi.string()
    .pattern(/^[a-z][a-z0-9-]{0,39}$/, 'storage id')
    .required(),
});
const storageErrors = ['auth.permission.denied', 'app.storage.not_found', 'app.storage.not_mapped', 'app.storage.no_access', ...pathErrors] as const;

export const appFolderPage = Joi.object<AppFolderPage, true>({
  items: Joi.array().items(fileEntry).required(),
  nextCursor: Joi.string().allow(null).required(),
  path: Joi.string().allow('').required(),
}).id('AppFolderPage');

export const appFilesRoutes = {
  listFiles: defineRoute({
    id: 'appApi.listFiles',
    method: 'GET',
    path: '/api/app/storage/{storageId}/list',
    access: 'app',
    summary: 'One page of a folder of the app’s mapped storage, sorted as the file API sorts',
    params,
    query: listQuery,
    status: 200,
    response: appFolderPage,
    errors: [...storageErrors, 'fs.entry.not_found', 'fs.entry.not_folder', 'fs.cursor.invalid'],
  }),
  readFile: defineRoute({
    id: 'appApi.readFile',
    method: 'GET',
    path: '/api/app/storage/{storageId}/content',
    access: 'app',
    summary: 'The content of a file of the app’s mapped storage, with ranges and conditional requests as in the file API',
    params,
    query: Joi.object<{ path: string }, true>({ path: relPath().required() }),
    headers: ['Range', 'If-Range', 'If-None-Match', 'If-Modified-Since'],
    status: 200,
    // The file's own media type, from its extension.
    response: { raw: true, contentType: '*/*' },
    errors: [...storageErrors, 'fs.entry.not_found', 'fs.entry.not_file', 'fs.range.not_satisfiable'],
  }),
  writeFile: defineRoute({
    id: 'appApi.writeFile',
    method: 'PUT',
    path: '/api/app/storage/{storageId}/content',
    access: 'app',
    summary: 'Writes a file into the app’s mapped storage (a readWrite mapping only); it appears under its name once the body is complete',
    params,
    query: Joi.object<{ path: string; overwrite?: boolean }, true>({ path: relPath().required(), overwrite: Joi.boolean() }),
    body: { raw: true, contentType: 'application/octet-stream' },
    bodyLimit: maxUploadBytes,
    status: 201,
    response: fileEntry,
    errors: [
      ...storageErrors,
      'app.storage.read_only',
      'fs.entry.not_found',
      'fs.entry.not_folder',
      'fs.entry.exists',
      'fs.entry.is_folder',
      'fs.upload.incomplete',
      'fs.space.insufficient',
      'request.body.too_large',
    ],
  }),
};
