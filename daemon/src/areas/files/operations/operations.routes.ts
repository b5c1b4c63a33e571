import type { fileOperationsRoutes } from '../../../../../shared/src/api/files/operations.ts';
import type { AreaHandlers } from '../../../http/handler.ts';
import type { OperationsService } from './operations.service.ts';

export function fileOperationsHandlers(operations: OperationsService): AreaHandlers<typeof fileOperationsRoutes> {
  return {
    run: ({ user, body }) => operations.start(user, body),
  };
}
