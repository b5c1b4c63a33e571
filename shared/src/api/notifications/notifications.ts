import Joi from 'joi';
import { id, idParams, isoTime } from '../common.ts';
import { defineRoute } from '../route.ts';

/** Limits of the spec: a user keeps at most this many, none older than this many days. */
export const notificationLimits = { count: 200, maxAgeDays: 30 } as const;

export const notificationLevels = ['info', 'success', 'warning', 'error'] as const;
export type NotificationLevel = (typeof notificationLevels)[number];

/** Type of the notifications core apps send; other areas use their own (`jobs.finished`, ...). */
export const appMessageType = 'app.message';

export interface Notification {
  id: number;
  /** What made it: `app.message` for core apps, else the sending area's own type. */
  type: string;
  /** The core app that sent it, or the app a link opens; null for the box itself. */
  appId: string | null;
  level: NotificationLevel;
  title: string;
  body: string;
  /**
   * What the notification says as a code the web translates with `params` (`store.update.available`);
   * null for notifications whose title and body are the text (core apps' messages). Title and body
   * stay as an English fallback.
   */
  code: string | null;
  params: Record<string, string | number> | null;
  /** A desktop URL (`/apps/...`) that opens what the notification is about; null for none. */
  link: string | null;
  read: boolean;
  createdAt: string;
}

export interface NotificationList {
  /** Newest first, at most 200, none older than 30 days. */
  items: Notification[];
  unread: number;
}

export interface AppNotificationRequest {
  appId: string;
  title: string;
  body?: string;
  level?: NotificationLevel;
  link?: string | null;
}

export interface MarkNotificationsReadRequest {
  /** The notifications to mark read; without ids every one of the caller's. Unknown ids are ignored. */
  ids?: number[];
}

export const notificationSchema = Joi.object<Notification, true>({
  id: id().required(),
  type: Joi.string().required(),
  appId: Joi.string().allow(null).required(),
  level: Joi.string()
    .valid(...notificationLevels)
    .required(),
  title: Joi.string().required(),
  body: Joi.string().allow('').required(),
  code: Joi.string().allow(null).required(),
  params: Joi.object()
    .pattern(Joi.string(), Joi.alternatives(Joi.string().allow(''), Joi.number()))
    .allow(null)
    .required(),
  link: Joi.string().allow(null).required(),
  read: Joi.boolean().required(),
  createdAt: isoTime().required(),
}).id('Notification');

export const notificationListSchema = Joi.object<NotificationList, true>({
  items: Joi.array().items(notificationSchema).required(),
  unread: Joi.number().integer().min(0).required(),
}).id('NotificationList');

/** A path of the desktop, never another origin (`//host`, `https:`). */
export const desktopLink = () =>
  Joi.string()
    .max(1000)
    .pattern(/^\/(?![/\\])[^\s]*$/, 'desktop path');

export const appNotificationRequestSchema = Joi.object<AppNotificationRequest, true>({
  appId: Joi.string().max(128).required(),
  title: Joi.string().trim().min(1).max(200).required(),
  body: Joi.string().trim().allow('').max(2000),
  level: Joi.string().valid(...notificationLevels),
  link: desktopLink().allow(null),
}).id('AppNotificationRequest');

export const markReadSchema = Joi.object<MarkNotificationsReadRequest, true>({
  ids: Joi.array().items(id()).max(1000),
}).id('MarkNotificationsReadRequest');

export const notificationsRoutes = {
  list: defineRoute({
    id: 'notifications.list',
    method: 'GET',
    path: '/api/notifications',
    access: 'user',
    summary: "The caller's notifications: newest first, at most 200, none older than 30 days",
    description: 'The `notifications` topic answers the same list as its snapshot, then `created`, `read` and `deleted` events.',
    status: 200,
    response: notificationListSchema,
    errors: [],
  }),
  deleteAll: defineRoute({
    id: 'notifications.deleteAll',
    method: 'DELETE',
    path: '/api/notifications',
    access: 'user',
    summary: 'Deletes every notification of the caller; storage alerts are not notifications and stay',
    status: 204,
    errors: [],
  }),
  delete: defineRoute({
    id: 'notifications.delete',
    method: 'DELETE',
    path: '/api/notifications/{id}',
    access: 'user',
    summary: 'Deletes one notification of the caller',
    description: "Someone else's notification or an absent one answers 404 `notifications.notification.not_found`.",
    params: idParams,
    status: 204,
    errors: ['notifications.notification.not_found'],
  }),
  sendApp: defineRoute({
    id: 'notifications.sendApp',
    method: 'POST',
    path: '/api/notifications/app',
    access: 'user',
    summary: 'A core app notifies the caller; stored as `app.message`',
    description:
      'Core apps only: `appId` must be a core app (`org.service.*`) that the caller may open, else 403 `auth.permission.denied`. Invalid fields answer 400 `notifications.message.invalid` with `params.errors`. Third-party apps use /api/app/notifications with their token.',
    body: appNotificationRequestSchema,
    bodyErrorCode: 'notifications.message.invalid',
    status: 201,
    response: notificationSchema,
    errors: ['notifications.message.invalid', 'auth.permission.denied'],
  }),
  markRead: defineRoute({
    id: 'notifications.markRead',
    method: 'POST',
    path: '/api/notifications/read',
    access: 'user',
    summary: 'Marks the given notifications read, or all of them without ids; unknown ids are ignored',
    body: markReadSchema,
    status: 204,
    errors: [],
  }),
};
