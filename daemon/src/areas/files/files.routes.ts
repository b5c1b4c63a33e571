import { filesRoutes } from '../../../../shared/src/api/files/files.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import { sendFile } from './content-response.ts';
import type { FilesService } from './files.service.ts';

/** Content-Length as a number; null for a chunked body. */
function declaredLength(header: string | undefined): number | null {
  if (header === undefined || !/^\d+$/.test(header)) return null;
  return Number(header);
}

export function filesHandlers(files: FilesService): AreaHandlers<typeof filesRoutes> {
  return {
    entry: ({ user, params, query }) => files.entry(user, params.shareId, query.path),
    list: ({ user, params, query }) => files.list(user, params.shareId, query),
    download: async ({ user, params, query, req, res }) => {
      const file = await files.openForRead(user, params.shareId, query.path);
      await sendFile(req, res, file, query.inline === true);
    },
    upload: ({ user, params, query, body, req }) =>
      files.upload(user, params.shareId, query.path, query.overwrite === true, body, declaredLength(req.get('Content-Length'))),
    createFolder: ({ user, params, body }) => files.createFolder(user, params.shareId, body.path),
    rename: ({ user, params, body }) => files.rename(user, params.shareId, body.path, body.newName),
  };
}
