import { topics } from '../../../../shared/src/topics.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TopicProvider } from '../../core/topics/topic-provider.ts';
import type { LogsService } from './logs.service.ts';

/** `logs/tail`: every new entry, for administrators only; the snapshot is the newest 100 entries. */
export function logTailTopic(logs: LogsService): TopicProvider {
  return {
    pattern: topics.logTail.pattern,
    async subscribe(principal: Principal) {
      if (!principal.admin) throw new ProblemError('auth.permission.denied');
      return logs.tailSnapshot();
    },
    async mayRead(principal: Principal) {
      return principal.admin;
    },
  };
}
