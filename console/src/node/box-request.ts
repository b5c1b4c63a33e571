import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import type { HttpMethod } from '../../../shared/src/api/route.ts';
import { ConsoleError } from './console-error.ts';

const maxAnswerBytes = 4 * 1024 * 1024;

/** What a request's TLS connection is held to: nothing yet, or one pinned certificate (the installation medium's). */
export interface BoxRequestTls {
  /**
   * The only certificate trusted (self-signed), and a check of the presented one that fails the
   * handshake before anything is sent (see installer-key.ts); unset verifies nothing.
   */
  pinned?: { ca: string; checkServerIdentity: (host: string, cert: PeerCertificate) => Error | undefined };
}

/**
 * One JSON request to a box from the main process, for the installer only, never an installed
 * box's desktop (that goes through the pinned session). Before the owner compared the medium's
 * key nothing is verified, and the answer carries the certificate the connection presented; after,
 * the request is held to the pinned certificate. Each request has a connection of its own, so a
 * connection never verified is never reused for one that must be.
 */
export function boxRequest(
  origin: string,
  method: HttpMethod,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number; tls?: BoxRequestTls } = {},
): Promise<{ status: number; body: unknown; peerCertificate: string | null }> {
  const url = new URL(path, origin);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (payload !== undefined) headers['Content-Type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const pinned = options.tls?.pinned;
    const tls = pinned ? { ca: pinned.ca, checkServerIdentity: pinned.checkServerIdentity, rejectUnauthorized: true } : { rejectUnauthorized: false };
    const req = send(url, { method, headers, timeout: options.timeoutMs ?? 10_000, agent: false, ...tls }, (res) => {
      const peer = 'getPeerX509Certificate' in res.socket ? ((res.socket as TLSSocket).getPeerX509Certificate()?.toString() ?? null) : null;
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxAnswerBytes) req.destroy(new ConsoleError('console.box.unreachable', { url: origin }));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          // A box answers JSON or problem+json; anything else is no answer the console reads.
          body = null;
        }
        resolve({ status: res.statusCode ?? 0, body, peerCertificate: peer });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new ConsoleError('console.box.unreachable', { url: origin })));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof ConsoleError) return reject(err);
      // A pinned connection whose handshake failed verification: the box presented another key.
      if (pinned && err.code !== undefined && !/^E[A-Z]+$/.test(err.code)) return reject(new ConsoleError('console.installer.key_changed', { url: origin }));
      reject(new ConsoleError('console.box.unreachable', { url: origin }));
    });
    req.end(payload);
  });
}
