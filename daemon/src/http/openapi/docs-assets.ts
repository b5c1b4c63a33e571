import { createRequire } from 'node:module';
import path from 'node:path';
import type { Response } from 'express';
import type { DocsAssetName } from '../../../../shared/src/api/system/docs.ts';
import { installPath } from '../../core/install-paths.ts';
import { dropWritePreconditions } from '../read-preconditions.ts';

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ownDir = installPath('daemon/src/http/openapi/assets');

/** Only the files the page uses: the package also holds a demo page that loads a remote petstore. */
const assets: Record<DocsAssetName, string> = {
  'swagger-ui.css': path.join(swaggerDir, 'swagger-ui.css'),
  'swagger-ui-bundle.js': path.join(swaggerDir, 'swagger-ui-bundle.js'),
  'favicon-32x32.png': path.join(swaggerDir, 'favicon-32x32.png'),
  'docs-init.js': path.join(ownDir, 'docs-init.js'),
  'docs.css': path.join(ownDir, 'docs.css'),
};

/**
 * Sends Swagger UI or the page's own script and style from this daemon, so the docs need no CDN; with
 * Last-Modified for revalidation (304; the daemon turns ETags off). No ranges: the files are small and the document offers none.
 */
export function sendDocsAsset(res: Response, name: DocsAssetName): Promise<void> {
  dropWritePreconditions(res.req);
  return new Promise((resolve, reject) =>
    res.sendFile(assets[name], { maxAge: '1h', acceptRanges: false }, (err) => (err && !res.headersSent ? reject(err) : resolve())),
  );
}
