import type { Notification, NotificationList } from '../../../../shared/src/api/notifications/notifications.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import { api } from '../../lib/api.ts';
import { live } from '../../lib/live.ts';
import { applyNotificationEvent } from './notification-events.ts';

/** The caller's notifications, live: the topic's snapshot, then its events. */
export class NotificationStore {
  items = $state<Notification[]>([]);
  readonly unread = $derived(this.items.filter((n) => !n.read).length);

  /** Subscribes; answers the unsubscribe function. */
  start(): () => void {
    return live.subscribe('notifications', topicName.notifications, {
      snapshot: (list: NotificationList) => (this.items = list.items),
      event: (event) => (this.items = applyNotificationEvent(this.items, event)),
    });
  }

  // The topic confirms each change; applying it at once keeps the list snappy, the event changes nothing more.
  async markRead(ids?: number[]): Promise<void> {
    await api.notifications.markRead({ body: ids ? { ids } : {} });
    this.items = applyNotificationEvent(this.items, { type: 'read', data: { ids: ids ?? this.items.map((n) => n.id) } });
  }

  async remove(id: number): Promise<void> {
    await api.notifications.delete({ params: { id } });
    this.items = applyNotificationEvent(this.items, { type: 'deleted', data: { ids: [id] } });
  }

  async removeAll(): Promise<void> {
    await api.notifications.deleteAll();
    this.items = [];
  }
}
