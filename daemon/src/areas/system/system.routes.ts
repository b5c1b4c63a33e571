import { systemRoutes } from '../../../../shared/src/api/system.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { SystemService } from './system.service.ts';

export function systemHandlers(system: SystemService): AreaHandlers<typeof systemRoutes> {
  return {
    health: () => system.health(),
    setup: () => system.setup(),
    region: () => system.region(),
    setRegion: ({ body }) => system.setRegion(body),
  };
}
