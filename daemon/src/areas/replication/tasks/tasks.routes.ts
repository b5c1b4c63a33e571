import type { replicationTasksRoutes } from '../../../../../shared/src/api/replication/tasks.ts';
import type { AreaHandlers } from '../../../http/handler.ts';
import type { TasksService } from './tasks.service.ts';

export function replicationTasksHandlers(tasks: TasksService): AreaHandlers<typeof replicationTasksRoutes> {
  return {
    list: () => tasks.list(),
    create: ({ body }) => tasks.create(body),
    get: ({ params }) => tasks.get(params.taskId),
    update: ({ params, body }) => tasks.update(params.taskId, body),
    delete: async ({ params }) => void (await tasks.delete(params.taskId)),
    run: ({ params, user }) => tasks.runNow(params.taskId, user.id),
    runs: ({ params }) => tasks.runs(params.taskId),
  };
}
