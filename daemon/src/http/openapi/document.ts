import { appInstanceHeader } from '../../../../shared/src/api/apps/apps.ts';
import { problemSchema } from '../../../../shared/src/api/common.ts';
import type { RouteTable } from '../../../../shared/src/api/route.ts';
import { errorCatalog, problemType, type ErrorCode, type ErrorSpec } from '../../../../shared/src/errors/index.ts';
import { sessionCookieName } from '../app.ts';
import { apiDescription } from './description.ts';
import { buildOperation } from './operation.ts';
import { requestText, requestTextName } from './request-text.ts';
import { SchemaRegistry } from './schema-registry.ts';
import { areaDescriptions } from './tags.ts';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
    'x-error-catalog': Record<string, unknown>;
  };
}

export interface DocumentOptions {
  title: string;
  version: string;
}

function errorCatalogExtension(): Record<string, unknown> {
  return Object.fromEntries(
    (Object.keys(errorCatalog) as ErrorCode[]).map((code) => {
      const spec: ErrorSpec = errorCatalog[code];
      return [
        code,
        { status: spec.status, title: spec.title, params: spec.params ?? [], ...(spec.reasons ? { reasons: spec.reasons } : {}), type: problemType(code) },
      ];
    }),
  );
}

const componentPrefix = '#/components/schemas/';

function collectRefs(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, into);
  else if (typeof node === 'object' && node !== null)
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(componentPrefix)) into.add(value.slice(componentPrefix.length));
      else collectRefs(value, into);
    }
}

/**
 * The components some operation reaches, directly or through other components. A named query or
 * path schema is spread into parameters and leaves its component behind, referenced by nothing.
 */
function usedComponents(paths: OpenApiDocument['paths'], components: Record<string, unknown>): Record<string, unknown> {
  const used = new Set<string>();
  collectRefs(paths, used);
  for (const name of used) collectRefs(components[name], used);
  return Object.fromEntries(Object.entries(components).filter(([name]) => used.has(name)));
}

/**
 * The OpenAPI 3.1 document of every route table, by area. It iterates the tables, so an area
 * added to `api` is documented without further work.
 */
export function buildOpenApiDocument(
  tables: Record<string, RouteTable>,
  options: DocumentOptions,
): { document: OpenApiDocument; conflicts: string[]; undocumented: string[] } {
  const registry = new SchemaRegistry();
  registry.convert(problemSchema);
  registry.components[requestTextName] = requestText;
  const paths: OpenApiDocument['paths'] = {};
  for (const [area, table] of Object.entries(tables)) {
    for (const route of Object.values(table)) {
      const item = (paths[route.path] ??= {});
      item[route.method.toLowerCase()] = buildOperation(registry, area, route);
    }
  }
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, description: apiDescription },
    // Relative: the box that serves this document serves the API, under whatever name it was reached.
    servers: [{ url: '/', description: 'The box that serves this document' }],
    tags: Object.keys(tables).map((name) => ({ name, description: areaDescriptions[name as keyof typeof areaDescriptions] ?? name })),
    paths,
    components: {
      schemas: usedComponents(paths, registry.components),
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: sessionCookieName, description: 'The session cookie set by POST /api/auth/login.' },
        csrf: {
          type: 'apiKey',
          in: 'header',
          name: 'X-CSRF-Token',
          description: "The session's csrfToken, on every state-changing request made with a session.",
        },
        appToken: { type: 'http', scheme: 'bearer', description: 'A host token from POST /api/apps/{appId}/tokens, for the API for apps (/api/app/**).' },
        appInstance: {
          type: 'apiKey',
          in: 'header',
          name: appInstanceHeader,
          description: 'The window the call comes from: the instanceId the token was issued for.',
        },
      },
      'x-error-catalog': errorCatalogExtension(),
    },
  };
  // Names used for two different shapes: the route tables' mistake, reported by the caller and the tests.
  return { document, conflicts: [...registry.conflicts], undocumented: [...registry.undocumented] };
}
