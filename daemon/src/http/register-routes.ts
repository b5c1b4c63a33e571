import type { Request, RequestHandler, Response, Router } from 'express';
import type { RawBody, RouteDef, RouteTable } from '../../../shared/src/api/route.ts';
import type Joi from 'joi';
import { currentContext } from '../core/request-context.ts';
import { holdsRight, type Principal, type PrincipalResolver } from '../core/principal.ts';
import { ProblemError } from '../core/problem-error.ts';
import { appCredentialsOf } from './app-credentials.ts';
import { assertCsrf, assertSameOrigin } from './csrf.ts';
import { jsonBody } from './json-body.ts';
import type { AppTokenClaims, AreaHandlers, HandlerContext } from './handler.ts';
import { checkResponse, validatePart } from '../core/validate.ts';

export interface RouteDeps {
  resolvePrincipal: PrincipalResolver;
  validateResponses: boolean;
  /** The window behind a host token presented as that window, with its user; null for a missing, ended or another window's token. */
  resolveAppToken?: (token: string, instanceId: string) => Promise<{ principal: Principal; claims: AppTokenClaims } | null>;
}

const defaultJsonLimit = 100 * 1024;
const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isRaw(x: unknown): x is RawBody {
  return typeof x === 'object' && x !== null && (x as RawBody).raw === true;
}

/** `/api/jobs/{id}` becomes Express's `/api/jobs/:id`. */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** Reads the caller from the session; a session whose user is gone or deactivated is ended. */
async function principalOf(req: Request, deps: RouteDeps): Promise<Principal | null> {
  const userId = req.session?.userId;
  if (userId === undefined) return null;
  const found = await deps.resolvePrincipal(userId);
  if (!found) {
    await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    return null;
  }
  const ctx = currentContext();
  if (ctx) ctx.userId = found.id;
  return { ...found, sessionId: req.sessionID };
}

/**
 * The caller of a route of the API for apps: only a host token, presented by the window it was
 * issued for, counts. The session cookie is ignored, so a page that rides on the desktop's session
 * can never act as an app, and a token needs no CSRF header (a browser never adds it on its own).
 */
async function appCallerOf(req: Request, deps: RouteDeps): Promise<{ principal: Principal; claims: AppTokenClaims }> {
  const credentials = appCredentialsOf(req);
  const found = credentials && deps.resolveAppToken ? await deps.resolveAppToken(credentials.token, credentials.instanceId) : null;
  if (!found) throw new ProblemError('app.token.invalid');
  const ctx = currentContext();
  if (ctx) ctx.userId = found.principal.id;
  return found;
}

function authorise(route: RouteDef, principal: Principal | null): void {
  if (route.access === 'public') return;
  if (!principal) throw new ProblemError('auth.session.required');
  if (route.access === 'admin' && !principal.admin) throw new ProblemError('auth.permission.denied');
  if (route.access.startsWith('right:') && !holdsRight(principal, route.access.slice('right:'.length))) throw new ProblemError('auth.permission.denied');
}

function jsonBodyOf(route: RouteDef): RequestHandler[] {
  if (!route.body || isRaw(route.body)) return [];
  return [jsonBody(route.bodyLimit ?? defaultJsonLimit)];
}

function bodyValue(schema: Joi.Schema, body: unknown): unknown {
  // An absent body is an empty object for object schemas, so optional-field requests need none.
  if (body === undefined && schema.type === 'object') return {};
  return body;
}

/** Mounts one area's routes: parse, authenticate, CSRF, authorise, validate, call, answer. */
export function registerArea<T extends RouteTable>(router: Router, table: T, handlers: AreaHandlers<T>, deps: RouteDeps): void {
  for (const [name, route] of Object.entries(table) as [keyof T & string, RouteDef][]) {
    registerRoute(router, expressPath(route.path), route, handlers[name] as unknown as RouteHandler, deps);
  }
}

export type RouteHandler = (ctx: HandlerContext<RouteDef>) => Promise<unknown>;

/** Mounts one route at `at` of `router` (its path, or the part below the router's prefix). */
export function registerRoute(router: Router, at: string, route: RouteDef, handler: RouteHandler, deps: RouteDeps): void {
  const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  router[method](at, ...jsonBodyOf(route), async (req, res) => {
    if (route.access === 'app') {
      const caller = await appCallerOf(req, deps);
      await answer(route, handler, deps, req, res, caller.principal, caller.claims);
      return;
    }
    const user = await principalOf(req, deps);
    if (stateChanging.has(route.method)) {
      if (route.csrfExempt) assertSameOrigin(req);
      else if (user) assertCsrf(req);
    }
    authorise(route, user);
    await answer(route, handler, deps, req, res, user, null);
  });
}

/** Validates the request's parts, calls the handler and sends its answer. */
async function answer(
  route: RouteDef,
  handler: RouteHandler,
  deps: RouteDeps,
  req: Request,
  res: Response,
  user: Principal | null,
  app: AppTokenClaims | null,
): Promise<void> {
  const params = route.params ? validatePart(route.params, req.params, 'request.params.invalid', true) : {};
  const query = route.query ? validatePart(route.query, req.query, 'request.query.invalid', true) : {};
  let body: unknown = undefined;
  if (route.body && isRaw(route.body)) body = req;
  else if (route.body) body = validatePart(route.body, bodyValue(route.body, req.body), route.bodyErrorCode ?? 'request.body.invalid', false);
  const result = await handler({ params, query, body, user, session: req.session, req, res, app } as HandlerContext<RouteDef>);
  if (res.headersSent || res.writableEnded) return;
  if (route.status === 204 || result === undefined) {
    res.status(route.status).end();
    return;
  }
  if (deps.validateResponses && route.response && !isRaw(route.response)) checkResponse(route.response, result, route.id);
  res.status(route.status).json(result);
}
