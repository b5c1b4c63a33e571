import Joi from 'joi';
import { defineRoute } from '../route.ts';

/** The files the docs page loads, served by the daemon itself so the page needs no CDN. */
export const docsAssetNames = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'docs-init.js', 'docs.css'] as const;
export type DocsAssetName = (typeof docsAssetNames)[number];

/** The API's own description: the OpenAPI document and the page that renders it for people. */
export const docsRoutes = {
  openapi: defineRoute({
    id: 'docs.openapi',
    method: 'GET',
    path: '/api/openapi.json',
    access: 'public',
    summary: 'This OpenAPI 3.1 document: every operation with its schemas and the error codes it can answer',
    status: 200,
    response: { raw: true, contentType: 'application/json' },
    errors: [],
  }),
  page: defineRoute({
    id: 'docs.page',
    method: 'GET',
    path: '/api/docs',
    access: 'public',
    summary: 'The API documentation for people, with the error code catalog (`#error-<code>` anchors)',
    status: 200,
    response: { raw: true, contentType: 'text/html' },
    errors: [],
  }),
  asset: defineRoute({
    id: 'docs.asset',
    method: 'GET',
    path: '/api/docs/assets/{file}',
    access: 'public',
    summary: 'A file of the documentation page (Swagger UI and the page’s own script and style), cached an hour and revalidated by date (If-Modified-Since)',
    params: Joi.object<{ file: DocsAssetName }, true>({
      file: Joi.string()
        .valid(...docsAssetNames)
        .required(),
    }),
    headers: ['If-Modified-Since'],
    status: 200,
    response: { raw: true, contentType: ['text/css', 'text/javascript', 'image/png'] },
    errors: [],
  }),
};
