import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { HttpMethod } from '../../../shared/src/api/route.ts';
import { ConsoleError } from './console-error.ts';

const maxAnswerBytes = 4 * 1024 * 1024;

/**
 * One JSON request to a box from the main process. TLS is not verified here: it serves the
 * installer, which has no certificate of its own yet (the short code on the box's screen is what
 * the user compares), never an installed box's desktop (that goes through the pinned session).
 */
export function boxRequest(
  origin: string,
  method: HttpMethod,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ status: number; body: unknown }> {
  const url = new URL(path, origin);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (payload !== undefined) headers['Content-Type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers, timeout: options.timeoutMs ?? 10_000, rejectUnauthorized: false }, (res) => {
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
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new ConsoleError('console.box.unreachable', { url: origin })));
    req.on('error', (err) => reject(err instanceof ConsoleError ? err : new ConsoleError('console.box.unreachable', { url: origin })));
    req.end(payload);
  });
}
