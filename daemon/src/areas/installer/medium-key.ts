import { createHash, X509Certificate } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { InstallerKeyFingerprint } from '../../../../shared/src/api/installer/installer.ts';
import { buildCertificate, certificateToPem, generateKeyPair, serverExtensions } from '../tls/pki.ts';

const dayMs = 24 * 60 * 60 * 1000;

export interface MediumKey {
  certificatePem: string;
  privateKeyPem: string;
  fingerprint: InstallerKeyFingerprint;
}

/**
 * The fingerprint of a certificate's key: SHA-256 over its public key (SubjectPublicKeyInfo, DER),
 * so it names the key whatever certificate carries it. The short form (the first 80 bits, in five
 * groups of four hex digits) is what the owner compares: finding another key with the same 80
 * bits is far beyond anyone on the LAN during an installation.
 */
export function keyFingerprint(certificatePem: string): InstallerKeyFingerprint {
  const spki = new X509Certificate(certificatePem).publicKey.export({ type: 'spki', format: 'der' });
  const sha256 = createHash('sha256').update(spki).digest('hex');
  const short = (sha256.slice(0, 20).toUpperCase().match(/.{4}/g) ?? []).join(' ');
  return { sha256, short };
}

/**
 * A fresh key and self-signed certificate for the medium's HTTPS, made at every start and kept
 * only in the installer's state directory (mode 0700, in memory on the medium): nothing signs it,
 * the console pins its key after the owner compared the fingerprint with the box's screen.
 */
export async function makeMediumKey(stateDir: string, now: number): Promise<MediumKey> {
  const keys = await generateKeyPair(2048);
  const cert = buildCertificate({
    commonName: 'Cellar installer',
    keys,
    notBefore: new Date(now - dayMs),
    notAfter: new Date(now + 30 * dayMs),
    issuer: null,
    extensions: serverExtensions(['cellar-installer']),
  });
  const certificatePem = certificateToPem(cert);
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  chmodSync(stateDir, 0o700);
  const dir = path.join(stateDir, 'medium-tls');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(dir, 'key.pem'), keys.privateKeyPem, { mode: 0o600 });
  writeFileSync(path.join(dir, 'certificate.pem'), certificatePem, { mode: 0o644 });
  return { certificatePem, privateKeyPem: keys.privateKeyPem, fingerprint: keyFingerprint(certificatePem) };
}
