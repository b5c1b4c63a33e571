import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';
import { installPath } from '../../core/install-paths.ts';
import { docsAssetsPath } from './docs-page.ts';

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ownDir = installPath('daemon/src/http/openapi/assets');

/** Only the files the page uses: the package also holds a demo page that loads a remote petstore. */
const assets: Record<string, string> = {
  'swagger-ui.css': path.join(swaggerDir, 'swagger-ui.css'),
  'swagger-ui-bundle.js': path.join(swaggerDir, 'swagger-ui-bundle.js'),
  'favicon-32x32.png': path.join(swaggerDir, 'favicon-32x32.png'),
  'docs-init.js': path.join(ownDir, 'docs-init.js'),
  'docs.css': path.join(ownDir, 'docs.css'),
};

/** Serves Swagger UI and the page's own script and style from this daemon, so the docs need no CDN. */
export function docsAssets(): Router {
  const router = express.Router();
  router.get(`${docsAssetsPath}/:file`, (req, res, next) => {
    const file = Object.hasOwn(assets, req.params.file) ? assets[req.params.file] : undefined;
    if (!file) {
      next();
      return;
    }
    res.sendFile(file, { maxAge: '1h' });
  });
  return router;
}
