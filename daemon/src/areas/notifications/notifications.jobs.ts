import type { Scheduler } from '../../core/scheduler.ts';
import type { NotificationsService } from './notifications.service.ts';

const dayMs = 24 * 60 * 60 * 1000;

/** Every write prunes its own user; the daily run removes what aged past 30 days for users who get nothing new. */
export function scheduleNotificationPrune(scheduler: Scheduler, notifications: NotificationsService): void {
  scheduler.every('notifications.prune', dayMs, async () => {
    await notifications.pruneAll();
  });
}
