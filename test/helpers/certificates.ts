import { createAuthority, issueServerCertificate, type AuthorityMaterial } from '../../daemon/src/areas/tls/authority.ts';
import forge from 'node-forge';
import { buildCertificate, certificateToPem, generateKeyPair, keyPairFromPem, serverExtensions } from '../../daemon/src/areas/tls/pki.ts';

const dayMs = 24 * 3600 * 1000;

/** Certificates of another authority, as an administrator would upload them (tests of PUT .../custom). */
export interface OutsideCertificates {
  authority: AuthorityMaterial;
  /** A server certificate for `names`, valid from `fromDays` to `toDays` around now, with its key. */
  server(options?: { names?: string[]; fromDays?: number; toDays?: number }): Promise<{ certificatePem: string; privateKeyPem: string; chain: string }>;
  /** A server certificate without subjectAltName, with its chain. */
  withoutNames(): Promise<{ chain: string; privateKeyPem: string }>;
}

export async function outsideCertificates(): Promise<OutsideCertificates> {
  const authority = await createAuthority({ now: Date.now() - 30 * dayMs, hostname: 'elsewhere', localDomain: 'local' });
  return {
    authority,
    async server(options = {}) {
      const from = options.fromDays ?? 0;
      const to = options.toDays ?? 90;
      const issued = await issueServerCertificate(authority, options.names ?? ['nas.local'], { now: Date.now() + from * dayMs, lifetimeDays: to - from });
      return { ...issued, chain: issued.certificatePem + authority.intermediatePem + authority.rootPem };
    },
    async withoutNames() {
      const keys = await generateKeyPair(2048);
      const cert = buildCertificate({
        commonName: 'no names',
        keys,
        notBefore: new Date(Date.now() - dayMs),
        notAfter: new Date(Date.now() + 30 * dayMs),
        issuer: { certificate: forge.pki.certificateFromPem(authority.intermediatePem), keys: keyPairFromPem(authority.intermediateKeyPem) },
        // Every server extension but the subjectAltName.
        extensions: serverExtensions([]).slice(0, 3),
      });
      return { chain: certificateToPem(cert) + authority.intermediatePem + authority.rootPem, privateKeyPem: keys.privateKeyPem };
    },
  };
}
