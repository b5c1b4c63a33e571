import type { RouteDef } from '../../../../shared/src/api/route.ts';
import { errorCatalog, problemType, type ErrorCode } from '../../../../shared/src/errors/index.ts';
import { openOnMedium } from '../medium-gate.ts';
import { isRaw } from '../register-routes.ts';

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isStateChanging(route: RouteDef): boolean {
  return stateChanging.has(route.method);
}

/**
 * A state-changing request made with a session must carry the CSRF token; the sign-in requests
 * check Origin instead, and the API for apps takes a bearer token, which no browser adds on its own.
 */
export function needsCsrf(route: RouteDef): boolean {
  return isStateChanging(route) && !route.csrfExempt && route.access !== 'app';
}

/**
 * Every code a route can answer: the ones it declares plus the generic ones that the route
 * registration (register-routes.ts) and the problem handler produce for a route of its kind.
 */
export function routeErrorCodes(route: RouteDef): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  if (route.params) codes.add('request.params.invalid');
  if (route.query) codes.add('request.query.invalid');
  if (route.body) {
    codes.add('request.body.too_large');
    if (!isRaw(route.body)) codes.add('request.body.invalid').add('request.media_type.unsupported');
  }
  if (route.access === 'app') codes.add('app.token.invalid');
  else if (route.access !== 'public') codes.add('auth.session.required');
  if (route.access === 'admin' || route.access.startsWith('right:')) codes.add('auth.permission.denied');
  if (needsCsrf(route)) codes.add('auth.csrf.invalid');
  if (isStateChanging(route) && route.csrfExempt) codes.add('auth.origin.invalid');
  for (const code of route.errors) codes.add(code);
  // The installation medium answers only the installer and a few open operations.
  if (!route.id.startsWith('installer.') && !(route.path.startsWith('/api/') && openOnMedium(route.method, route.path.slice('/api'.length))))
    codes.add('installer.mode.only');
  codes.add('server.internal.error');
  return [...codes];
}

/** The codes grouped by their HTTP status, statuses ascending. */
export function codesByStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCatalog[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus.entries()].sort(([a], [b]) => a - b));
}

/** The problem+json responses of a route, one per status, naming each code it can answer there. */
export function errorResponses(route: RouteDef): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of codesByStatus(routeErrorCodes(route))) {
    const lines = codes.map((code) => `- [\`${code}\`](${problemType(code)}): ${errorCatalog[code].title}`);
    responses[String(status)] = {
      description: `Problem details with one of these codes:\n\n${lines.join('\n')}`,
      'x-error-codes': codes,
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } } },
    };
  }
  return responses;
}
