// The OpenAPI document as the daemon serves it at /api/openapi.json, built in-process from the route
// tables: the API lint and the generated client's types start from it without starting a daemon.
import { api } from '../../shared/src/api/index.ts';
import { product } from '../../daemon/src/core/product.ts';
import { buildOpenApiDocument, type OpenApiDocument } from '../../daemon/src/http/openapi/document.ts';

export function apiDocument(): OpenApiDocument {
  const { document, conflicts } = buildOpenApiDocument(api, { title: product.name, version: product.version });
  if (conflicts.length > 0) throw new Error(`schema names used for different shapes: ${conflicts.join(', ')}`);
  return document;
}
