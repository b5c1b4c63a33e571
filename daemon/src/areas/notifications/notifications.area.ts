import type { Sequelize } from 'sequelize';
import { api } from '../../../../shared/src/api/index.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { Scheduler } from '../../core/scheduler.ts';
import type { TopicsHub } from '../../core/topics/topics-hub.ts';
import { tableRoutes } from '../../http/area-routes.ts';
import { defineArea } from '../area.ts';
import { initNotificationModel } from './notification.model.ts';
import { scheduleNotificationPrune } from './notifications.jobs.ts';
import { notificationsHandlers } from './notifications.routes.ts';
import { NotificationsService } from './notifications.service.ts';
import { notificationsTopic } from './notifications.topics.ts';

export interface NotificationsAreaDeps {
  db: Sequelize;
  clock: Clock;
  logger: Logger;
  topics: TopicsHub;
  scheduler: Scheduler;
}

/** Each user's notifications with their topic; other areas notify through the service. */
export function createNotificationsArea(deps: NotificationsAreaDeps) {
  const notifications = new NotificationsService({
    notifications: initNotificationModel(deps.db),
    clock: deps.clock,
    logger: deps.logger,
    publish: (userId, event) => deps.topics.publishToUser(userId, topicName.notifications, event.type, event.data),
  });
  scheduleNotificationPrune(deps.scheduler, notifications);
  return defineArea({
    name: 'notifications',
    topics: [notificationsTopic(notifications)],
    routes: [tableRoutes(api.notifications, notificationsHandlers(notifications))],
    notifications,
  });
}
