import { errorCatalog, type ErrorCode, type ErrorSpec } from '../../../../shared/src/errors/index.ts';

export const docsAssetsPath = '/api/docs/assets';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The error code catalog with one `error-<code>` anchor per code: the target of every problem's `type`. */
export function errorCatalogHtml(): string {
  const entries = (Object.keys(errorCatalog) as ErrorCode[]).sort().map((code) => {
    const spec: ErrorSpec = errorCatalog[code];
    const params = spec.params?.length ? `; <em>params: ${spec.params.map(escapeHtml).join(', ')}</em>` : '';
    return `<dt id="error-${escapeHtml(code)}"><code>${escapeHtml(code)}</code> (${spec.status})</dt><dd>${escapeHtml(spec.title)}${params}</dd>`;
  });
  return `<section id="error-catalog"><h2>Error codes</h2><p>Every failure is problem details whose <code>type</code> links here.</p><dl>\n${entries.join('\n')}\n</dl></section>`;
}

/** The documentation page: Swagger UI from the daemon's own copy (no CDN) above the error catalog. */
export function docsPageHtml(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} API</title>
<link rel="icon" type="image/png" href="${docsAssetsPath}/favicon-32x32.png">
<link rel="stylesheet" href="${docsAssetsPath}/swagger-ui.css">
<link rel="stylesheet" href="${docsAssetsPath}/docs.css">
</head>
<body>
<div id="swagger-ui"></div>
${errorCatalogHtml()}
<script src="${docsAssetsPath}/swagger-ui-bundle.js"></script>
<script src="${docsAssetsPath}/docs-init.js"></script>
</body>
</html>
`;
}
