import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { isIP } from 'node:net';
import type { ProxyTarget, ProxyTargetStatus } from '../../../../shared/src/api/proxy/proxy.ts';

const timeoutMs = 10_000;

/**
 * One request to a proxy host's target as nginx makes it (its Host header, TLS without
 * verification); for https targets it also says what a verifying client would object to.
 */
export function checkTarget(target: ProxyTarget, hostName: string, now: () => number = Date.now): Promise<ProxyTargetStatus> {
  const started = now();
  const elapsed = () => Math.max(0, now() - started);
  return new Promise((resolve) => {
    let certificateProblem: string | null = null;
    const options = {
      host: target.host,
      port: target.port,
      method: 'GET',
      path: '/',
      headers: { Host: hostName, 'User-Agent': 'Cellar proxy check' },
      timeout: timeoutMs,
      agent: false as const,
    };
    const req =
      target.scheme === 'https'
        ? httpsRequest({ ...options, rejectUnauthorized: false, servername: isIP(target.host) ? undefined : target.host })
        : httpRequest(options);
    req.on('socket', (socket) => {
      socket.once('secureConnect', () => {
        const tls = socket as TLSSocket;
        if (!tls.authorized) certificateProblem = String(tls.authorizationError ?? 'not trusted');
      });
    });
    req.on('response', (res) => {
      res.resume();
      resolve({ reachable: true, status: res.statusCode ?? null, timeMs: elapsed(), error: null, certificateProblem });
      req.destroy();
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ reachable: false, status: null, timeMs: elapsed(), error: err.code ? `${err.code}: ${err.message}` : err.message, certificateProblem }),
    );
    req.end();
  });
}
