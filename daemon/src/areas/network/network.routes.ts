import type { Request } from 'express';
import type { systemNetworkRoutes } from '../../../../shared/src/api/network/network.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { NetworkService } from './network.service.ts';

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
}

export function networkHandlers(network: NetworkService): AreaHandlers<typeof systemNetworkRoutes> {
  return {
    network: ({ req }) => network.state(req.socket.localAddress ?? null),
    checkNetwork: ({ req, body }) => network.check(body, req.socket.localAddress ?? null),
    setNetwork: ({ req, body, user }) =>
      network.apply(body, { localAddress: req.socket.localAddress ?? null, scheme: req.protocol, port: req.socket.localPort ?? 7484 }, user.id),
    confirmNetwork: ({ params }) => network.confirm(params.changeId),
    revertNetwork: ({ params }) => network.revert(params.changeId),
    followNetwork: async ({ req, body }) => {
      const userId = network.follow(body.token);
      // A fresh session at the new address, as at sign-in: cookies of the old address do not travel here.
      await regenerate(req);
      req.session.userId = userId;
      req.session.signedInAt = Date.now();
    },
  };
}
