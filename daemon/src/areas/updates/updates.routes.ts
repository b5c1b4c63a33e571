import type { Readable } from 'node:stream';
import { maxBundleBytes, type updatesRoutes } from '../../../../shared/src/api/updates/updates.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { UpdatesService } from './updates.service.ts';

export function updatesHandlers(updates: UpdatesService): AreaHandlers<typeof updatesRoutes> {
  return {
    status: () => updates.status(),
    check: () => updates.check(),
    setSettings: ({ body }) => updates.setSettings(body),
    upload: ({ body }) => updates.upload(body as Readable, maxBundleBytes),
    discardUpload: () => updates.discardUpload(),
    install: ({ user, body }) => updates.install(user, body),
    restore: ({ user, params }) => updates.restore(user, params.name),
  };
}
