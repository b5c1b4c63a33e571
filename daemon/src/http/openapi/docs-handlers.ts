import type { docsRoutes } from '../../../../shared/src/api/system/docs.ts';
import type { RouteTable } from '../../../../shared/src/api/route.ts';
import type { Logger } from '../../core/logger.ts';
import type { AreaHandlers } from '../handler.ts';
import { sendDocsAsset } from './docs-assets.ts';
import { docsPageHtml } from './docs-page.ts';

export interface DocsDeps {
  tables: Record<string, RouteTable>;
  title: string;
  version: string;
  logger: Logger;
}

/** Answers the OpenAPI document, the docs page and its files; the first two each built once per daemon on first request. */
export function docsHandlers(deps: DocsDeps): AreaHandlers<typeof docsRoutes> {
  let documentJson: string | null = null;
  let pageHtml: string | null = null;
  const documentText = async (): Promise<string> => {
    if (documentJson !== null) return documentJson;
    // The generator and joi-to-json load on the first request: a box rarely serves its API document.
    const { buildOpenApiDocument } = await import('./document.ts');
    const { document, conflicts, undocumented } = buildOpenApiDocument(deps.tables, { title: deps.title, version: deps.version });
    if (conflicts.length > 0) deps.logger.warn('schema names used for different shapes', { component: 'openapi', names: conflicts });
    if (undocumented.length > 0) deps.logger.warn('schemas the document cannot carry', { component: 'openapi', problems: undocumented });
    documentJson = JSON.stringify(document);
    return documentJson;
  };
  return {
    openapi: async ({ res }) => {
      res.type('application/json').send(await documentText());
    },
    page: ({ res }) => {
      pageHtml ??= docsPageHtml(deps.title);
      res.type('html').send(pageHtml);
    },
    asset: ({ params, res }) => sendDocsAsset(res, params.file),
  };
}
