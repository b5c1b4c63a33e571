/**
 * What the installation medium's daemon answers besides the installer's own operations; every
 * other request under /api is refused with installer.mode.only. The OpenAPI document names that
 * code on each refused operation from this same rule, so the rule sits here in http, below both
 * the installer area's gate and the document. `p` is the path below /api.
 */
export const openOnMedium = (method: string, p: string): boolean =>
  p === '/health' || (p === '/setup' && method === 'GET') || p === '/openapi.json' || p === '/docs' || p.startsWith('/docs/');
