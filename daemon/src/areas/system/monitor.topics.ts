import { topics } from '../../../../shared/src/topics.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TopicProvider } from '../../core/topics/topic-provider.ts';
import type { ResourceMonitor } from './resource-monitor.ts';

/** `system/monitor`: administrators only; subscribing starts the sampling, the snapshot is the last hour. */
export function monitorTopic(monitor: ResourceMonitor): TopicProvider {
  return {
    pattern: topics.systemMonitor.pattern,
    subscribe: async (principal) => {
      if (!principal.admin) throw new ProblemError('auth.permission.denied');
      return monitor.watch();
    },
    mayRead: async (principal) => principal.admin,
  };
}
