import { topics } from '../../../../shared/src/topics.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TopicProvider } from '../../core/topics/topic-provider.ts';
import type { UpdatesService } from './updates.service.ts';

/** `system/updates`: administrators only; the snapshot is the same as GET /api/system/updates. */
export function updatesTopic(updates: UpdatesService): TopicProvider {
  return {
    pattern: topics.systemUpdates.pattern,
    subscribe: async (principal) => {
      if (!principal.admin) throw new ProblemError('auth.permission.denied');
      return updates.status();
    },
    mayRead: async (principal) => principal.admin,
  };
}
