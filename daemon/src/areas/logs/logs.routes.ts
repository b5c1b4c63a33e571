import type { logsRoutes } from '../../../../shared/src/api/logs/logs.ts';
import { currentContext } from '../../core/request-context.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { LogsService } from './logs.service.ts';

export function logsHandlers(logs: LogsService): AreaHandlers<typeof logsRoutes> {
  return {
    // Third-party apps log through the app API (/api/app/logs) with their own token.
    appBatch: ({ params, body, user }) => logs.coreAppBatch(params.app, user, currentContext()?.requestId ?? null, body),
    list: ({ query }) => logs.list(query),
    export: ({ query, res }) => logs.export(query, res),
    histogram: ({ query }) => logs.histogram(query),
    status: () => logs.status(),
    updateSettings: ({ body }) => logs.updateSettings(body),
    sources: () => logs.sources(),
  };
}
