import { topics } from '../../../../../shared/src/topics.ts';
import { ProblemError } from '../../../core/problem-error.ts';
import type { TopicProvider } from '../../../core/topics/topic-provider.ts';
import type { TasksService } from './tasks.service.ts';

/** `replication/tasks`: the task list after each change and the bytes of running runs; administrators only. */
export function replicationTasksTopic(tasks: TasksService): TopicProvider {
  return {
    pattern: topics.replicationTasks.pattern,
    subscribe: async (principal) => {
      if (!principal.admin) throw new ProblemError('auth.permission.denied');
      return tasks.list();
    },
    mayRead: async (principal) => principal.admin,
  };
}
