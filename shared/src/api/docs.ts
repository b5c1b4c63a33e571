import { defineRoute } from './route.ts';

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
};
