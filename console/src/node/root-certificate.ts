import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { request as plainRequest } from 'node:http';
import { ConsoleError } from './console-error.ts';

export interface FetchedRoot {
  pem: string;
  sha256: string;
  subject: string;
  validTo: string;
}

const maxRootBytes = 64 * 1024;

/** Reads one certificate from PEM; refuses anything that is not a single CA certificate. */
export function parseRoot(pem: string): FetchedRoot {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem);
  } catch {
    throw new ConsoleError('console.root.invalid');
  }
  if (!cert.ca || !cert.checkIssued(cert) || !cert.verify(cert.publicKey)) throw new ConsoleError('console.root.invalid');
  return { pem: cert.toString(), sha256: cert.fingerprint256, subject: cert.subject, validTo: new Date(cert.validTo).toISOString() };
}

/**
 * Fetches the box's root (GET /api/system/tls/root-ca.crt, public). Before trust nothing can vouch
 * for the box, so this one request skips verification: the user compares the fingerprint with the
 * one on the box's own page or screen, and only the compared root is pinned.
 */
export function fetchRoot(boxUrl: string, timeoutMs = 5000): Promise<FetchedRoot> {
  const url = new URL('/api/system/tls/root-ca.crt', boxUrl);
  const get = url.protocol === 'https:' ? request : plainRequest;
  return new Promise((resolve, reject) => {
    const req = get(url, { method: 'GET', timeout: timeoutMs, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxRootBytes) req.destroy(new ConsoleError('console.root.invalid'));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new ConsoleError('console.root.invalid', { status: res.statusCode }));
        try {
          resolve(parseRoot(Buffer.concat(chunks).toString('utf8')));
        } catch (err) {
          reject(err);
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new ConsoleError('console.box.unreachable', { url: boxUrl })));
    req.on('error', (err) => reject(err instanceof ConsoleError ? err : new ConsoleError('console.box.unreachable', { url: boxUrl })));
    req.end();
  });
}
