import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Request } from 'express';
import { proxyHostHeader, proxyKeyHeader, type proxyRoutes } from '../../../../shared/src/api/proxy/proxy.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { AreaHandlers } from '../../http/handler.ts';
import type { ProxyAccess } from './proxy-access.ts';
import type { ProxyService } from './proxy.service.ts';

/** The proxy host nginx asks for: a positive id in its header, or none. */
function hostIdOf(value: string | undefined): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1) throw new ProblemError('proxy.host.not_found', { id: value ?? null });
  return id;
}

const loopback = /^(127\.|::1$|::ffff:127\.)/;

function sameKey(given: string | undefined, key: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The visitor's address: the box's nginx names it in X-Real-IP, which it sets from $remote_addr over
 * anything the visitor sent, beside the daemon's per-start key (in nginx.conf, which only root reads).
 * Loopback alone proves nothing (an app's backend is a local process too), so without the key the
 * address is the connection's. X-Forwarded-For is never read: nginx hands the visitor's own one on.
 */
function visitorAddress(req: Request, key: string): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  const named = req.get('X-Real-IP');
  return loopback.test(peer) && named && isIP(named) && sameKey(req.get(proxyKeyHeader), key) ? named : peer;
}

/** `forwarderKey`: the secret nginx adds to its questions (see visitorAddress). */
export function proxyHandlers(proxy: ProxyService, access: ProxyAccess, forwarderKey: string): AreaHandlers<typeof proxyRoutes> {
  return {
    settings: () => proxy.settings(),
    createHost: ({ body }) => proxy.createHost(body),
    updateHost: ({ params, body }) => proxy.updateHost(params.id, body),
    removeHost: ({ params }) => proxy.removeHost(params.id),
    checkHost: ({ params }) => proxy.checkHost(params.id),
    setOptions: ({ body }) => proxy.setOptions(body),
    createRedirect: ({ body }) => proxy.createRedirect(body),
    updateRedirect: ({ params, body }) => proxy.updateRedirect(params.id, body),
    removeRedirect: ({ params }) => proxy.removeRedirect(params.id),
    createStream: ({ body }) => proxy.createStream(body),
    updateStream: ({ params, body }) => proxy.updateStream(params.id, body),
    removeStream: ({ params }) => proxy.removeStream(params.id),
    ticket: ({ user, body }) => access.ticket(user, body.url),
    authorize: ({ req }) =>
      access.authorize(hostIdOf(req.get(proxyHostHeader)), req.get('Cookie'), req.get('Authorization'), visitorAddress(req, forwarderKey)),
    redeem: async ({ req, res, query }) => {
      const secure = req.get('X-Forwarded-Proto') === 'https';
      const { cookie, location } = await access.redeem(hostIdOf(req.get(proxyHostHeader)), query.ticket, secure);
      res.setHeader('Set-Cookie', cookie);
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, location);
    },
  };
}
