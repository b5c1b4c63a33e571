import { statSync } from 'node:fs';
import type { Response } from 'express';
import type { storeRoutes } from '../../../../shared/src/api/store/store.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import { dropWritePreconditions } from '../../http/read-preconditions.ts';
import type { StoreBrowse } from './store-browse.ts';
import type { StoreService } from './store.service.ts';

/**
 * Images of catalogs are someone else's files: never run, never sniffed into another type. Sent as files
 * (ranges, the index's hash as ETag and Last-Modified for revalidation); a range past the end is the contract's 416, not a 500.
 */
function sendImage(res: Response, image: { file: string; type: string; etag: string }): Promise<void> {
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.type(image.type);
  // The daemon turns Express's own ETags off; sendFile takes this one for If-None-Match and If-Range.
  res.setHeader('ETag', image.etag);
  dropWritePreconditions(res.req);
  return new Promise((resolve, reject) =>
    res.sendFile(image.file, { dotfiles: 'allow' }, (err?: Error & { status?: number }) => {
      if (!err || res.headersSent) resolve();
      else if (err.status === 416) {
        const size = statSync(image.file).size;
        reject(new ProblemError('fs.range.not_satisfiable', { size }, { headers: { 'Content-Range': `bytes */${size}` } }));
      } else reject(err);
    }),
  );
}

export function storeHandlers(store: StoreService, browse: StoreBrowse): AreaHandlers<typeof storeRoutes> {
  return {
    state: () => store.state(),
    apps: ({ query }) => browse.list(query),
    addCatalog: ({ body, user }) => store.addCatalog(body, user.id),
    app: ({ params }) => browse.details(params.catalog, params.appId),
    icon: async ({ params, query, res }) => sendImage(res, await browse.image(params.catalog, params.appId, params.version, 'icon', query.name)),
    package: ({ params, user }) => browse.takePackage(user, params.catalog, params.appId, params.version),
    screenshot: async ({ params, res }) => sendImage(res, await browse.image(params.catalog, params.appId, params.version, 'screenshot', params.name)),
    updateCatalog: ({ params, body, user }) => store.updateCatalog(params.key, body, user.id),
    removeCatalog: ({ params }) => store.removeCatalog(params.key),
    sync: ({ params, user }) => store.enqueueSync(params.key, user.id),
    check: ({ user }) => store.deps.jobs.enqueue('store.check', {}, user.id),
    settings: ({ body, user }) => store.setSettings(body, user.id),
  };
}
