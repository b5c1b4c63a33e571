import { notificationsRoutes } from '../../../../shared/src/api/notifications/notifications.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { NotificationsService } from './notifications.service.ts';

export function notificationsHandlers(notifications: NotificationsService): AreaHandlers<typeof notificationsRoutes> {
  return {
    list: ({ user }) => notifications.list(user.id),
    deleteAll: ({ user }) => notifications.removeAll(user.id),
    delete: ({ user, params }) => notifications.remove(user.id, params.id),
    sendApp: ({ user, body }) => notifications.sendFromApp(user, body),
    markRead: ({ user, body }) => notifications.markRead(user.id, body.ids),
  };
}
