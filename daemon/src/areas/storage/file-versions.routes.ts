import type { fileVersionsRoutes } from '../../../../shared/src/api/storage/file-versions.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { FileVersionsService } from './file-versions.service.ts';

export function fileVersionsHandlers(versions: FileVersionsService): AreaHandlers<typeof fileVersionsRoutes> {
  return {
    list: ({ user, params, query }) => versions.list(user, params.shareId, query.path),
    restore: ({ user, params, body }) => versions.restore(user, params.shareId, body),
  };
}
