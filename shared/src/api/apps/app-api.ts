import Joi from 'joi';
import { appFilesRoutes } from './app-files.ts';
import { appPermissions, type AppPermission } from './app-manifest.ts';
import { id } from '../common.ts';
import { appLogBatchSchema, appLogResultSchema } from '../logs/logs.ts';
import { desktopLink, notificationLevels, notificationSchema, type NotificationLevel } from '../notifications/notifications.ts';
import { defineRoute } from '../route.ts';
import type { Language } from '../system/system.ts';

/**
 * The daemon's API for installed apps (`/api/app/**`). A window calls it with its host token
 * (`Authorization: Bearer`, from POST /api/apps/{appId}/tokens through the desktop); the session
 * cookie alone is never enough, and the app is the token's: an app can only act as itself.
 */

export interface AppSelf {
  appId: string;
  user: { id: number; username: string; displayName: string };
  language: Language;
  /** The permissions the app asks for and an administrator has not revoked. */
  permissions: AppPermission[];
  logLevel: 'info' | 'debug';
}

export interface AppMessageRequest {
  title: string;
  body?: string;
  level?: NotificationLevel;
  link?: string | null;
}

const appSelfSchema = Joi.object<AppSelf, true>({
  appId: Joi.string().required(),
  user: Joi.object({ id: id().required(), username: Joi.string().required(), displayName: Joi.string().allow('').required() }).required(),
  language: Joi.string().valid('en', 'de').required(),
  permissions: Joi.array()
    .items(Joi.string().valid(...appPermissions))
    .required(),
  logLevel: Joi.string().valid('info', 'debug').required(),
}).id('AppSelf');

export const appApiRoutes = {
  self: defineRoute({
    id: 'appApi.self',
    method: 'GET',
    path: '/api/app/me',
    access: 'app',
    summary: 'Who the window’s user is, the language, and the permissions the app holds now',
    status: 200,
    response: appSelfSchema,
    errors: [],
  }),
  notify: defineRoute({
    id: 'appApi.notify',
    method: 'POST',
    path: '/api/app/notifications',
    access: 'app',
    summary: 'The app notifies its user; needs the notifications permission; stored as `app.message`',
    body: Joi.object<AppMessageRequest, true>({
      title: Joi.string().trim().min(1).max(200).required(),
      body: Joi.string().trim().allow('').max(2000),
      level: Joi.string().valid(...notificationLevels),
      link: desktopLink().allow(null),
    }).id('AppMessageRequest'),
    bodyErrorCode: 'notifications.message.invalid',
    status: 201,
    response: notificationSchema,
    errors: ['notifications.message.invalid', 'auth.permission.denied'],
  }),
  logs: defineRoute({
    id: 'appApi.logs',
    method: 'POST',
    path: '/api/app/logs',
    access: 'app',
    summary: 'Stores log entries of the app as `app/<id>`: debug entries only while the app’s log level is debug',
    description: 'At most 100 entries a request; per app a burst of 200 then 20 entries a second, the rest is dropped and counted.',
    body: appLogBatchSchema,
    bodyLimit: 1024 * 1024,
    status: 200,
    response: appLogResultSchema,
    errors: [],
  }),
  ...appFilesRoutes,
};
