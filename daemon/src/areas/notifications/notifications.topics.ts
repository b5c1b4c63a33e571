import { topics } from '../../../../shared/src/topics.ts';
import type { Principal } from '../../core/principal.ts';
import type { TopicProvider } from '../../core/topics/topic-provider.ts';
import type { NotificationsService } from './notifications.service.ts';

/** `notifications`: every signed-in user reads their own; the snapshot is GET /api/notifications. */
export function notificationsTopic(notifications: NotificationsService): TopicProvider {
  return {
    pattern: topics.notifications.pattern,
    subscribe: (principal: Principal) => notifications.list(principal.id),
    mayRead: async () => true,
  };
}
