import { createHash, X509Certificate } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { PeerCertificate } from 'node:tls';

/** SHA-256 (hex) over a certificate's public key, as the installation medium's fingerprint names it. */
export const spkiSha256 = (pem: string): string =>
  createHash('sha256')
    .update(new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');

/**
 * A fetch over Node's own http/https modules, for what the global fetch cannot do: leave from one
 * loopback address (any of 127.0.0.0/8 on Linux, so the daemon sees another client address, as
 * a request from another computer would show it), and trust exactly one self-signed certificate
 * by its key (the installation medium's, which names no address), or trust a box's own root (`ca`).
 * String bodies only, which is what API tests send.
 */
export function nodeFetch(options: { localAddress?: string; pinnedCertificate?: string; ca?: string }): typeof fetch {
  const pin = options.pinnedCertificate;
  const tls = options.ca
    ? { ca: options.ca }
    : pin
      ? {
          ca: pin,
          // The chain verified against the certificate itself; its key, not a name, is what is pinned.
          checkServerIdentity: (_host: string, cert: PeerCertificate) =>
            createHash('sha256')
              .update(cert.pubkey ?? '')
              .digest('hex') === spkiSha256(pin)
              ? undefined
              : new Error('another key'),
        }
      : {};
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : input);
      const headers = Object.fromEntries(new Headers(init.headers));
      if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') throw new Error('nodeFetch sends string bodies only');
      const send = url.protocol === 'https:' ? https.request : http.request;
      const request = send(url, { method: init.method ?? 'GET', headers, localAddress: options.localAddress, ...tls }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          const out = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(name, one);
          }
          const status = answer.statusCode ?? 0;
          const body = [101, 204, 205, 304].includes(status) ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers: out }));
        });
      });
      request.on('error', reject);
      request.end(init.body ?? undefined);
    });
}

/** A fetch whose connections leave from one loopback address (see nodeFetch). */
export const fetchFrom = (localAddress: string, pinnedCertificate?: string): typeof fetch => nodeFetch({ localAddress, pinnedCertificate });
