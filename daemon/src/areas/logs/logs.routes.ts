import { coreAppPattern, logsRoutes } from '../../../../shared/src/api/logs.ts';
import { currentContext } from '../../core/request-context.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { LogsService } from './logs.service.ts';

export function logsHandlers(logs: LogsService): AreaHandlers<typeof logsRoutes> {
  return {
    appBatch: ({ params, body, user }) => {
      // Third-party apps log through the app API (/api/app/logs) with their own token.
      if (!coreAppPattern.test(params.app))
        throw new ProblemError('auth.permission.denied', undefined, { detail: 'Only core apps (org.service.*) may write here' });
      return logs.appBatch(params.app, user.id, currentContext()?.requestId ?? null, body);
    },
    list: ({ query }) => logs.list(query),
    export: ({ query, res }) => logs.export(query, res),
    histogram: ({ query }) => logs.histogram(query),
    status: () => logs.status(),
    updateSettings: ({ body }) => logs.updateSettings(body),
    sources: () => logs.sources(),
  };
}
