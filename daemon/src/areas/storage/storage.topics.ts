import { topics } from '../../../../shared/src/topics.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TopicProvider } from '../../core/topics/topic-provider.ts';
import type { AlertsService } from './alerts.service.ts';
import type { PoolsService } from './pools.service.ts';

function adminOnly(principal: Principal): void {
  if (!principal.admin) throw new ProblemError('auth.permission.denied');
}

export function storagePoolsTopic(pools: PoolsService): TopicProvider {
  return {
    pattern: topics.storagePools.pattern,
    subscribe: async (principal) => {
      adminOnly(principal);
      return pools.list();
    },
    mayRead: async (principal) => principal.admin,
  };
}

export function storageAlertsTopic(alerts: AlertsService): TopicProvider {
  return {
    pattern: topics.storageAlerts.pattern,
    subscribe: async (principal) => {
      adminOnly(principal);
      return alerts.health(principal.id);
    },
    mayRead: async (principal) => principal.admin,
  };
}
