import type { Notification } from '../../../../shared/src/api/notifications/notifications.ts';
import type { NotificationEvent } from '../../../../shared/src/topics.ts';

/** Applies one `notifications` topic event to the list, keeping it as GET /api/notifications answers it. */
export function applyNotificationEvent(items: Notification[], event: NotificationEvent): Notification[] {
  switch (event.type) {
    case 'created':
      return [event.data, ...items.filter((n) => n.id !== event.data.id)].slice(0, 200);
    case 'read': {
      const ids = new Set(event.data.ids);
      return items.map((n) => (ids.has(n.id) ? { ...n, read: true } : n));
    }
    case 'deleted': {
      const ids = new Set(event.data.ids);
      return items.filter((n) => !ids.has(n.id));
    }
  }
}
