import type { replicationRoutes } from '../../../../shared/src/api/replication/replication.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { PairingsService } from './pairings.service.ts';

export function replicationHandlers(pairings: PairingsService): AreaHandlers<typeof replicationRoutes> {
  return {
    createOffer: ({ body }) => pairings.createOffer(body.parent),
    accept: ({ body, req }) => pairings.accept(body, req.ip ?? req.socket.remoteAddress ?? 'unknown'),
    pair: ({ body }) => pairings.pair(body),
    pairings: () => pairings.list(),
    unpair: ({ params }) => pairings.unpair(params.id),
  };
}
