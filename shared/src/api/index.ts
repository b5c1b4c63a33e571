import { authRoutes } from './auth.ts';
import { jobsRoutes } from './jobs.ts';
import type { RouteTable } from './route.ts';
import { systemRoutes } from './system.ts';

/** Every area's route table, by area. Add an area here once and it is served, documented and typed. */
export const api = {
  auth: authRoutes,
  jobs: jobsRoutes,
  system: systemRoutes,
} satisfies Record<string, RouteTable>;

export type Api = typeof api;
export type AreaName = keyof Api;
