import { createHash, X509Certificate } from 'node:crypto';
import type { PeerCertificate } from 'node:tls';
import type { InstallerKeyFingerprint } from '../../../shared/src/api/installer/installer.ts';
import type { BoxRequestTls } from './box-request.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The fingerprint of a certificate's key as the installation medium shows it on its screen:
 * SHA-256 over the public key (SubjectPublicKeyInfo, DER), and its first 80 bits in five groups
 * of four (daemon/src/areas/installer/medium-key.ts makes the same).
 */
export function keyFingerprint(certificatePem: string): InstallerKeyFingerprint {
  const hex = sha256(new X509Certificate(certificatePem).publicKey.export({ type: 'spki', format: 'der' }));
  return { sha256: hex, short: (hex.slice(0, 20).toUpperCase().match(/.{4}/g) ?? []).join(' ') };
}

/**
 * Holds a connection to the medium's certificate: it is the only one trusted (the medium's is
 * self-signed and names no address), and its key must be the pinned one, or the handshake fails
 * before the request (with the claim's secret or the administrator's password) is sent.
 */
export function pinnedTls(certificatePem: string): BoxRequestTls {
  const wanted = keyFingerprint(certificatePem).sha256;
  return {
    pinned: {
      ca: certificatePem,
      checkServerIdentity: (_host: string, cert: PeerCertificate) =>
        cert.pubkey && sha256(cert.pubkey) === wanted
          ? undefined
          : Object.assign(new Error('the box presented another key'), { code: 'ERR_CELLAR_KEY_CHANGED' }),
    },
  };
}
