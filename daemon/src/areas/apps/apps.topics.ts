import { topics } from '../../../../shared/src/topics.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TopicProvider } from '../../core/topics/topic-provider.ts';
import type { InstalledAppsService } from './installed-apps.service.ts';

/** `apps/admin`: the installed apps as GET /api/apps answers them; administrators only. */
export function appsAdminTopic(apps: InstalledAppsService): TopicProvider {
  return {
    pattern: topics.appsAdmin.pattern,
    subscribe: async (principal) => {
      if (!principal.admin) throw new ProblemError('auth.permission.denied');
      return apps.list();
    },
    mayRead: async (principal) => principal.admin,
  };
}

/** `apps/<appId>`: what an app's windows follow (its log level), to those who may use the app. */
export function appsTopic(apps: InstalledAppsService): TopicProvider {
  const appIdOf = (topic: string) => topic.slice('apps/'.length);
  const mayRead = (principal: Principal, topic: string) => apps.mayUse(principal, appIdOf(topic));
  return {
    pattern: topics.apps.pattern,
    subscribe: async (principal, topic) => {
      const appId = appIdOf(topic);
      if (!(await mayRead(principal, topic))) throw new ProblemError('app.app.not_found', { appId });
      return { appId, level: (await apps.details(appId)).logLevel };
    },
    mayRead,
  };
}
