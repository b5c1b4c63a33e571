import express, { type Router } from 'express';
import type { RouteTable } from '../../../shared/src/api/route.ts';
import type { AreaHandlers } from './handler.ts';
import { expressPath, registerRoute, type RouteDeps, type RouteHandler } from './register-routes.ts';

/** One route table of an area with its handlers. */
export interface TableRoutes {
  table: RouteTable;
  handlers: AreaHandlers<RouteTable>;
}

/** Registers a route table's routes on the routers of their prefixes (what a mount calls for its tables). */
export type RegisterTable = <T extends RouteTable>(table: T, handlers: AreaHandlers<T>) => void;

/**
 * What an area mounts itself, for the few routes outside the route tables (apps' frontends and
 * backend proxy, CORS before the API for apps, the installation medium's gate): `root` is the API
 * router, where a `use` lands in the order of the areas' routes.
 */
export type AreaMount = (root: Router, register: RegisterTable) => void;

/** A route table with its handlers, typed against each other. */
export function tableRoutes<T extends RouteTable>(table: T, handlers: AreaHandlers<T>): TableRoutes {
  return { table, handlers: handlers as unknown as AreaHandlers<RouteTable> };
}

/** `/api/storage/pools/{pool}` is under `/api/storage`; a path without a literal second segment stays on the root. */
export function routePrefix(path: string): string | null {
  return /^\/api\/[^/{}:]+/.exec(path)?.[0] ?? null;
}

/**
 * Routers per prefix (`/api/storage`, `/api/files`, ...) on the API router: a request is matched
 * against the few prefixes and then the routes of its own, not against every route of the API.
 * A prefix's router joins the root where its first route is registered, and the routes of one
 * prefix keep the order they are registered in, so the first of two overlapping patterns still wins.
 */
export function prefixRouters(root: Router, deps: RouteDeps): RegisterTable {
  const routers = new Map<string, Router>();
  const routerFor = (prefix: string): Router => {
    let router = routers.get(prefix);
    if (!router) {
      router = express.Router();
      routers.set(prefix, router);
      root.use(prefix, router);
    }
    return router;
  };
  return (table, handlers) => {
    for (const [name, route] of Object.entries(table)) {
      const prefix = routePrefix(route.path);
      const handler = handlers[name] as unknown as RouteHandler;
      if (!prefix) registerRoute(root, expressPath(route.path), route, handler, deps);
      else registerRoute(routerFor(prefix), expressPath(route.path.slice(prefix.length)) || '/', route, handler, deps);
    }
  };
}

/** Mounts the areas' routes in their order: tables on their prefixes' routers, mounts on the root. */
export function mountRoutes(root: Router, deps: RouteDeps, routes: readonly (TableRoutes | AreaMount)[]): void {
  const register = prefixRouters(root, deps);
  for (const entry of routes) {
    if (typeof entry === 'function') entry(root, register);
    else register(entry.table, entry.handlers);
  }
}
