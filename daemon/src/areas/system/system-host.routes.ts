import type { systemOverviewRoutes } from '../../../../shared/src/api/system/overview.ts';
import type { systemTimeRoutes } from '../../../../shared/src/api/system/time.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { OverviewService } from './overview.service.ts';
import type { PowerService } from './power.service.ts';
import type { SessionsService } from './sessions.service.ts';
import type { TimeService } from './time.service.ts';

export function systemTimeHandlers(time: TimeService): AreaHandlers<typeof systemTimeRoutes> {
  return {
    time: () => time.get(),
    setTime: ({ body }) => time.set(body),
  };
}

export function systemOverviewHandlers(overview: OverviewService, power: PowerService, sessions: SessionsService): AreaHandlers<typeof systemOverviewRoutes> {
  return {
    overview: () => overview.get(),
    sessions: () => sessions.get(),
    powerState: () => power.state(),
    power: ({ user, body }) => power.request(user, body.action),
  };
}
