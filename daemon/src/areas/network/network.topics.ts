import { topics } from '../../../../shared/src/topics.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TopicProvider } from '../../core/topics/topic-provider.ts';
import type { NetworkService } from './network.service.ts';

/** `system/network`: administrators only; the state without the connection's interface (a socket has no single one). */
export function networkTopic(network: NetworkService): TopicProvider {
  return {
    pattern: topics.systemNetwork.pattern,
    subscribe: async (principal) => {
      if (!principal.admin) throw new ProblemError('auth.permission.denied');
      return network.state(null);
    },
    mayRead: async (principal) => principal.admin,
  };
}
