import { Op } from 'sequelize';
import {
  appMessageType,
  notificationLimits,
  type AppNotificationRequest,
  type Notification,
  type NotificationLevel,
  type NotificationList,
} from '../../../../shared/src/api/notifications/notifications.ts';
import { findCoreApp, mayOpenCoreApp, type AppCaller } from '../../../../shared/src/apps.ts';
import type { NotificationEvent } from '../../../../shared/src/topics.ts';
import { isoAt, type Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { NotificationRow } from './notification.model.ts';

/** Where the service's changes go: the `notifications` topic of that one user. */
export type PublishToUser = (userId: number, event: NotificationEvent) => void;

export interface NotificationsDeps {
  notifications: typeof NotificationRow;
  clock: Clock;
  logger: Logger;
  publish: PublishToUser;
}

/** What another area (jobs tray, storage alerts) says when it notifies a user. */
export interface NewNotification {
  /** `area.subject`, for example `jobs.finished`; core apps' messages are `app.message`. */
  type: string;
  title: string;
  body?: string;
  /** A code the web translates with `params`; title and body are its English text. */
  code?: string;
  params?: Record<string, string | number>;
  level?: NotificationLevel;
  appId?: string | null;
  link?: string | null;
}

const dayMs = 24 * 60 * 60 * 1000;
const newestFirst: [string, string][] = [
  ['createdAt', 'DESC'],
  ['id', 'DESC'],
];

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    type: row.type,
    appId: row.appId,
    level: row.level,
    title: row.title,
    body: row.body,
    code: row.code ?? null,
    params: row.params ? (JSON.parse(row.params) as Record<string, string | number>) : null,
    link: row.link,
    read: row.read,
    createdAt: row.createdAt,
  };
}

/** Per-user notifications: newest first, at most 200, none older than 30 days. */
export class NotificationsService {
  constructor(private readonly deps: NotificationsDeps) {}

  private cutoff(): string {
    return new Date(this.deps.clock.now() - notificationLimits.maxAgeDays * dayMs).toISOString();
  }

  /** Filters by age as well, so an entry past 30 days is gone even before the next prune. */
  async list(userId: number): Promise<NotificationList> {
    const rows = await this.deps.notifications.findAll({
      where: { userId, createdAt: { [Op.gte]: this.cutoff() } },
      order: newestFirst,
      limit: notificationLimits.count,
    });
    const items = rows.map(toNotification);
    return { items, unread: items.filter((n) => !n.read).length };
  }

  /** Notifies a user: stores the notification, prunes what falls out of the limits, publishes both. */
  async notify(userId: number, input: NewNotification): Promise<Notification> {
    const row = await this.deps.notifications.create({
      userId,
      type: input.type,
      appId: input.appId ?? null,
      level: input.level ?? 'info',
      title: input.title,
      body: input.body ?? '',
      code: input.code ?? null,
      params: input.params ? JSON.stringify(input.params) : null,
      link: input.link ?? null,
      read: false,
      createdAt: isoAt(this.deps.clock),
    });
    const notification = toNotification(row);
    this.deps.publish(userId, { type: 'created', data: notification });
    await this.pruneUser(userId);
    return notification;
  }

  /** A core app notifies the caller; other apps, and core apps the caller may not open, are refused. */
  async sendFromApp(caller: AppCaller & { id: number }, request: AppNotificationRequest): Promise<Notification> {
    const app = findCoreApp(request.appId);
    if (!app || !mayOpenCoreApp(app, caller))
      throw new ProblemError('auth.permission.denied', undefined, {
        detail: `Only core apps the user may open send notifications here, not ${request.appId}`,
      });
    return this.notify(caller.id, {
      type: appMessageType,
      appId: app.id,
      title: request.title,
      body: request.body,
      level: request.level,
      link: request.link,
    });
  }

  async remove(userId: number, id: number): Promise<void> {
    const count = await this.deps.notifications.destroy({
      where: { id, userId },
    });
    if (count === 0) throw new ProblemError('notifications.notification.not_found');
    this.deps.publish(userId, { type: 'deleted', data: { ids: [id] } });
  }

  async removeAll(userId: number): Promise<void> {
    await this.destroyIds(userId, { userId });
  }

  /** Marks the given ids (or all) read; ids that are unknown, someone else's or already read change nothing. */
  async markRead(userId: number, ids?: number[]): Promise<void> {
    const where = ids ? { userId, read: false, id: { [Op.in]: ids } } : { userId, read: false };
    const rows = await this.deps.notifications.findAll({
      where,
      attributes: ['id'],
    });
    if (rows.length === 0) return;
    const changed = rows.map((r) => r.id);
    await this.deps.notifications.update({ read: true }, { where: { userId, id: { [Op.in]: changed } } });
    this.deps.publish(userId, { type: 'read', data: { ids: changed } });
  }

  /** The daily prune of every user: removes what is older than 30 days. */
  async pruneAll(): Promise<number> {
    const old = await this.deps.notifications.findAll({
      where: { createdAt: { [Op.lt]: this.cutoff() } },
      attributes: ['userId'],
      group: ['userId'],
    });
    let removed = 0;
    for (const { userId } of old)
      removed += await this.destroyIds(userId, {
        userId,
        createdAt: { [Op.lt]: this.cutoff() },
      });
    if (removed > 0) this.deps.logger.info('old notifications pruned', { logCode: 'notifications.pruned', component: 'notifications', removed });
    return removed;
  }

  /** Keeps one user within the limits: the newest 200, none older than 30 days. */
  private async pruneUser(userId: number): Promise<void> {
    const beyondCap = await this.deps.notifications.findAll({
      where: { userId },
      order: newestFirst,
      offset: notificationLimits.count,
      attributes: ['id'],
    });
    await this.destroyIds(userId, {
      userId,
      [Op.or]: [{ createdAt: { [Op.lt]: this.cutoff() } }, { id: { [Op.in]: beyondCap.map((r) => r.id) } }],
    });
  }

  /** Deletes the user's rows matching `where` and tells the user's desktops which went. */
  private async destroyIds(userId: number, where: Record<string | symbol, unknown>): Promise<number> {
    const rows = await this.deps.notifications.findAll({
      where,
      attributes: ['id'],
    });
    if (rows.length === 0) return 0;
    const ids = rows.map((r) => r.id);
    await this.deps.notifications.destroy({
      where: { userId, id: { [Op.in]: ids } },
    });
    this.deps.publish(userId, { type: 'deleted', data: { ids } });
    return ids.length;
  }
}
