import type { ProxyHost, ProxyOptionsRequest, ProxyRedirect, ProxyStream } from '../../../../shared/src/api/proxy/proxy.ts';
import { describe } from '../tls/pki.ts';

/** A certificate with its chain and key as the proxy keeps it (in its row: it goes when the host goes). */
export interface StoredCertificate {
  chainPem: string;
  privateKeyPem: string;
}

export interface StoredHost extends Omit<ProxyHost, 'id' | 'tls' | 'basicAuth'> {
  tls: { mode: ProxyHost['tls']['mode']; certificate: StoredCertificate | null };
  /** scrypt hashes (users/passwords.ts); never the passwords. */
  basicAuth: { username: string; hash: string }[];
}

export interface StoredRedirect extends Omit<ProxyRedirect, 'id'> {
  certificate: StoredCertificate | null;
}

export type StoredStream = Omit<ProxyStream, 'id'>;

export const defaultOptions: ProxyOptionsRequest = { unknownNames: 'redirect', signInUrl: null };

/** Everything the proxy's configuration is generated from. */
export interface ProxyState {
  options: ProxyOptionsRequest;
  hosts: (StoredHost & { id: number })[];
  redirects: (StoredRedirect & { id: number })[];
  streams: (StoredStream & { id: number })[];
}

export function hostView(host: StoredHost & { id: number }): ProxyHost {
  const { tls, basicAuth, ...rest } = host;
  return {
    ...rest,
    tls: { mode: tls.mode, certificate: tls.certificate ? describe(tls.certificate.chainPem) : null },
    basicAuth: basicAuth.map((u) => ({ username: u.username })),
  };
}

export function redirectView(redirect: StoredRedirect & { id: number }): ProxyRedirect {
  const { certificate: _certificate, ...rest } = redirect;
  return rest;
}
