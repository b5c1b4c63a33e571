import { topics } from '../../../../shared/src/topics.ts';
import type { TopicProvider } from '../../core/topics/topic-provider.ts';
import type { DesktopService } from './desktop.service.ts';

/**
 * `desktop`: every signed-in user reads the changes of their own desktop. The snapshot lets a
 * tab that was offline (it subscribes again on reconnecting) catch up on what it missed.
 */
export function desktopTopic(desktop: Pick<DesktopService, 'snapshot'>): TopicProvider {
  return {
    pattern: topics.desktop.pattern,
    subscribe: async (principal) => desktop.snapshot(principal.id),
    mayRead: async () => true,
  };
}
