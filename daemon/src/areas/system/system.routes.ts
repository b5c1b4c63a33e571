import { firstRunRoutes } from '../../../../shared/src/api/system/first-run.ts';
import { systemRoutes } from '../../../../shared/src/api/system/system.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { FirstRunSetup } from './first-run.ts';
import type { SystemService } from './system.service.ts';

export function systemHandlers(system: SystemService): AreaHandlers<typeof systemRoutes> {
  return {
    health: () => system.health(),
    setup: () => system.setup(),
    region: () => system.region(),
    setRegion: ({ body }) => system.setRegion(body),
  };
}

export function firstRunHandlers(setup: FirstRunSetup): AreaHandlers<typeof firstRunRoutes> {
  return { complete: ({ body }) => setup.complete(body), zones: () => setup.zones() };
}
