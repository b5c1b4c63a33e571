import Joi from 'joi';
import { isoTime, pathErrors } from '../common.ts';
import { defineRoute } from '../route.ts';
import { shareIdParams } from '../shares/shares.ts';

export type EntryType = 'file' | 'folder' | 'symlink' | 'other';
/** Where a symbolic link leads: inside the share (followed), outside or nowhere (never followed). */
export type LinkTarget = 'inside' | 'outside' | 'broken';
export type SortKey = 'name' | 'size' | 'modified';
export type SortOrder = 'asc' | 'desc';

export interface FileEntry {
  name: string;
  /** Relative to the share, `/`-separated; '' is the share itself. */
  path: string;
  /** For a link inside the share, the type of what it points to; 'symlink' for links never followed. */
  type: EntryType;
  size: number;
  modified: string;
  /** Set for symbolic links. */
  link: LinkTarget | null;
}

export interface FolderPage {
  items: FileEntry[];
  nextCursor: string | null;
  path: string;
  /** Live topic of this folder: subscribe for created, changed, deleted and renamed events. */
  topic: string;
}

export interface EntryQuery {
  path: string;
}

export interface ContentQuery {
  path: string;
  inline?: boolean;
}

export interface UploadQuery {
  path: string;
  overwrite?: boolean;
}

export interface ListQuery {
  path?: string;
  sort?: SortKey;
  order?: SortOrder;
  limit?: number;
  cursor?: string;
}

export interface NewFolderRequest {
  /** Path of the folder to create. */
  path: string;
}

export interface RenameRequest {
  path: string;
  /** The new name inside the same folder (one path segment). */
  newName: string;
}

/** Paths are checked by the daemon segment by segment; the schema only bounds them. */
const relPath = () => Joi.string().max(4096);

export const fileEntry = Joi.object<FileEntry, true>({
  name: Joi.string().allow('').required(),
  path: Joi.string().allow('').required(),
  type: Joi.string().valid('file', 'folder', 'symlink', 'other').required(),
  size: Joi.number().integer().min(0).required(),
  modified: isoTime().required(),
  link: Joi.string().valid('inside', 'outside', 'broken').allow(null).required(),
}).id('FileEntry');

export const folderPage = Joi.object<FolderPage, true>({
  items: Joi.array().items(fileEntry).required(),
  nextCursor: Joi.string().allow(null).required(),
  path: Joi.string().allow('').required(),
  topic: Joi.string().required(),
}).id('FolderPage');

export const maxListLimit = 1000;

/** A folder page's query: the file API's and the app API's for mapped storage. */
export const listQuery = Joi.object<ListQuery, true>({
  path: relPath().allow(''),
  sort: Joi.string().valid('name', 'size', 'modified'),
  order: Joi.string().valid('asc', 'desc'),
  limit: Joi.number().integer().min(1).max(maxListLimit),
  cursor: Joi.string().max(8192),
});

/** The largest upload: far beyond any disk of a home box, but a bound all the same. */
export const maxUploadBytes = 2 ** 44;

export const filesRoutes = {
  entry: defineRoute({
    id: 'files.entry',
    method: 'GET',
    path: '/api/files/{shareId}/entry',
    access: 'user',
    summary: 'One file or folder',
    params: shareIdParams,
    query: Joi.object<EntryQuery, true>({ path: relPath().allow('').required() }),
    status: 200,
    response: fileEntry,
    errors: [...pathErrors, 'fs.entry.not_found'],
  }),
  list: defineRoute({
    id: 'files.list',
    method: 'GET',
    path: '/api/files/{shareId}/list',
    access: 'user',
    summary: 'One page of a folder: name (natural order ignoring case), size or modified; live changes on the named topic',
    params: shareIdParams,
    query: listQuery,
    status: 200,
    response: folderPage,
    errors: [...pathErrors, 'fs.entry.not_found', 'fs.entry.not_folder', 'fs.cursor.invalid'],
  }),
  download: defineRoute({
    id: 'files.download',
    method: 'GET',
    path: '/api/files/{shareId}/content',
    access: 'user',
    summary:
      'The content of a file: ranges (one range per request; several answer the whole file), strong ETag, conditional requests; attachment unless inline',
    params: shareIdParams,
    query: Joi.object<ContentQuery, true>({ path: relPath().required(), inline: Joi.boolean() }),
    headers: ['Range', 'If-Range', 'If-None-Match', 'If-Modified-Since'],
    status: 200,
    // The file's own media type, from its extension.
    response: { raw: true, contentType: '*/*' },
    errors: [...pathErrors, 'fs.entry.not_found', 'fs.entry.not_file', 'fs.range.not_satisfiable'],
  }),
  upload: defineRoute({
    id: 'files.upload',
    method: 'PUT',
    path: '/api/files/{shareId}/content',
    access: 'user',
    summary: 'Streams the body into a hidden file of the target folder, which appears under its name only once the body is complete',
    params: shareIdParams,
    query: Joi.object<UploadQuery, true>({ path: relPath().required(), overwrite: Joi.boolean() }),
    body: { raw: true, contentType: 'application/octet-stream' },
    bodyLimit: maxUploadBytes,
    status: 201,
    response: fileEntry,
    errors: [
      ...pathErrors,
      'fs.share.read_only',
      'fs.entry.not_found',
      'fs.entry.not_folder',
      'fs.entry.exists',
      'fs.entry.is_folder',
      'fs.upload.incomplete',
      'fs.space.insufficient',
      'request.body.too_large',
    ],
  }),
  createFolder: defineRoute({
    id: 'files.createFolder',
    method: 'POST',
    path: '/api/files/{shareId}/folders',
    access: 'user',
    summary: 'Creates a folder',
    params: shareIdParams,
    body: Joi.object<NewFolderRequest, true>({ path: relPath().required() }).id('NewFolderRequest'),
    status: 201,
    response: fileEntry,
    errors: [...pathErrors, 'fs.share.read_only', 'fs.entry.not_found', 'fs.entry.not_folder', 'fs.entry.exists'],
  }),
  rename: defineRoute({
    id: 'files.rename',
    method: 'POST',
    path: '/api/files/{shareId}/rename',
    access: 'user',
    summary: 'Renames an entry within its folder; an existing name is never replaced',
    params: shareIdParams,
    body: Joi.object<RenameRequest, true>({ path: relPath().required(), newName: Joi.string().min(1).max(255).required() }).id('RenameRequest'),
    status: 200,
    response: fileEntry,
    errors: [...pathErrors, 'fs.share.read_only', 'fs.entry.not_found', 'fs.entry.exists'],
  }),
};
