import { topics } from '../../../../shared/src/topics.ts';
import type { TopicProvider } from '../../core/topics/topic-provider.ts';
import type { SharesService } from './shares.service.ts';

/** `shares/list`: every signed-in user may follow it; the snapshot is the caller's own list. */
export function sharesListTopic(shares: SharesService): TopicProvider {
  return {
    pattern: topics.sharesList.pattern,
    subscribe: (principal) => shares.list(principal),
    mayRead: async () => true,
  };
}
