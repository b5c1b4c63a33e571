import { generateKeyPair as nodeGenerateKeyPair, randomBytes, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { promisify } from 'node:util';
import forge from 'node-forge';
import type { CertificateInfo, TlsScope } from '../../../../shared/src/api/tls/tls.ts';
import { ipBytes, parseCidr } from './scope.ts';

const generate = promisify(nodeGenerateKeyPair);
const { pki, asn1 } = forge;

export interface KeyPair {
  privateKey: forge.pki.rsa.PrivateKey;
  publicKey: forge.pki.rsa.PublicKey;
  /** PKCS#8 PEM, unencrypted. */
  privateKeyPem: string;
}

/** RSA keys from Node's native generator: node-forge signs only with RSA, and its own generator is slow. */
export async function generateKeyPair(bits = 2048): Promise<KeyPair> {
  const { privateKey } = await generate('rsa', {
    modulusLength: bits,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return keyPairFromPem(privateKey);
}

export function keyPairFromPem(privateKeyPem: string): KeyPair {
  const privateKey = pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey;
  return { privateKey, publicKey: pki.setRsaPublicKey(privateKey.n, privateKey.e), privateKeyPem };
}

export interface Signer {
  certificate: forge.pki.Certificate;
  keys: KeyPair;
}

export interface CertificateRequest {
  commonName: string;
  keys: KeyPair;
  notBefore: Date;
  notAfter: Date;
  /** Null signs the certificate with its own key (a root). */
  issuer: Signer | null;
  extensions: object[];
}

function serialNumber(): string {
  const bytes = randomBytes(16);
  // A positive INTEGER: the top bit clear, and not led by a zero byte.
  bytes[0] = (bytes[0]! & 0x7f) | 0x40;
  return bytes.toString('hex');
}

/** Builds and signs (SHA-256) one certificate. */
export function buildCertificate(request: CertificateRequest): forge.pki.Certificate {
  const cert = pki.createCertificate();
  cert.publicKey = request.keys.publicKey;
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = request.notBefore;
  cert.validity.notAfter = request.notAfter;
  const subject = [
    { name: 'commonName', value: request.commonName },
    { name: 'organizationName', value: 'Cellar' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(request.issuer ? request.issuer.certificate.subject.attributes : subject);
  const authorityKey = request.issuer ? request.issuer.certificate : cert;
  cert.setExtensions([
    ...request.extensions,
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: authorityKey.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(request.issuer ? request.issuer.keys.privateKey : request.keys.privateKey, forge.md.sha256.create());
  return cert;
}

export function caExtensions(pathLength: number): object[] {
  return [
    { name: 'basicConstraints', cA: true, pathLenConstraint: pathLength, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
  ];
}

export function serverExtensions(names: readonly string[]): object[] {
  return [
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
  ];
}

/** RFC 5280 NameConstraints with permitted DNS subtrees and IP ranges (GeneralSubtree of dNSName [2] and iPAddress [7]). */
export function nameConstraintsExtension(scope: TlsScope): object {
  const subtree = (base: forge.asn1.Asn1) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [base]);
  const dns = scope.dnsNames.map((name) => subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 2, false, name)));
  const ips = scope.ipRanges.map((range) => {
    const { address, prefix } = parseCidr(range);
    const bytes = ipBytes(address);
    const mask = bytes.map((_, i) => {
      const bits = Math.max(0, Math.min(8, prefix - i * 8));
      return (0xff << (8 - bits)) & 0xff;
    });
    const value = String.fromCharCode(...bytes, ...mask);
    return subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 7, false, value));
  });
  const permitted = asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [...dns, ...ips]);
  return { id: '2.5.29.30', name: 'nameConstraints', critical: true, value: asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [permitted]) };
}

/** Whether a CA certificate carries exactly the name constraints made from this scope (RSA certificates only, as the authority's are). */
export function constrainedTo(certificatePem: string, scope: TlsScope): boolean {
  try {
    // node-forge does not decode name constraints: the extension keeps its DER value.
    const extension = pki.certificateFromPem(certificatePem).getExtension('nameConstraints') as { value?: string; critical?: boolean } | undefined;
    const wanted = nameConstraintsExtension(scope) as { value: forge.asn1.Asn1 };
    return extension?.critical === true && extension.value === asn1.toDer(wanted.value).getBytes();
  } catch {
    return false;
  }
}

/** Whether a certificate carries a name constraints extension at all (roots made before they had one do not). */
export function hasNameConstraints(certificatePem: string): boolean {
  try {
    return Boolean(pki.certificateFromPem(certificatePem).getExtension('nameConstraints'));
  } catch {
    return false;
  }
}

export function certificateToPem(cert: forge.pki.Certificate): string {
  return pki.certificateToPem(cert).replace(/\r\n/g, '\n');
}

/** Splits a PEM bundle into its certificates, in order. */
export function splitPem(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)?.map((pem) => `${pem}\n`) ?? [];
}

/** SAN names of a certificate: DNS names and IP addresses. */
export function namesOf(cert: X509Certificate): string[] {
  const san = cert.subjectAltName ?? '';
  return san
    .split(', ')
    .map((entry) => /^(DNS|IP Address):(.+)$/.exec(entry))
    .flatMap((m) => (m?.[2] ? [m[2]] : []));
}

const nameLine = (dn: string) => dn.split('\n').filter(Boolean).join(', ');

/** What the API tells of a certificate (Node reads every key type, node-forge only RSA). */
export function describe(pem: string | X509Certificate): CertificateInfo {
  const cert = typeof pem === 'string' ? new X509Certificate(pem) : pem;
  return {
    subject: nameLine(cert.subject),
    issuer: nameLine(cert.issuer),
    names: namesOf(cert),
    notBefore: new Date(cert.validFrom).toISOString(),
    notAfter: new Date(cert.validTo).toISOString(),
    serial: cert.serialNumber,
    sha256Fingerprint: cert.fingerprint256,
  };
}

/** What a log entry tells of a certificate: never a key. */
export function loggedFacts(pem: string): Record<string, unknown> {
  const info = describe(pem);
  return { subject: info.subject, names: info.names, notAfter: info.notAfter, sha256Fingerprint: info.sha256Fingerprint };
}
