import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { ProblemError } from '../../core/problem-error.ts';
import { namesOf, splitPem } from './pki.ts';

let publicRoots: X509Certificate[] | null = null;

/** The public roots Node ships: an uploaded chain may stop below one of them. */
function knownRoots(): X509Certificate[] {
  publicRoots ??= rootCertificates.map((pem) => new X509Certificate(pem));
  return publicRoots;
}

const subjectOf = (cert: X509Certificate) => cert.subject.split('\n').filter(Boolean).join(', ');
const signedBy = (cert: X509Certificate, issuer: X509Certificate) => cert.checkIssued(issuer) && cert.verify(issuer.publicKey);

function parseChain(pem: string): X509Certificate[] {
  let chain: X509Certificate[] = [];
  try {
    chain = splitPem(pem).map((part) => new X509Certificate(part));
  } catch {
    // Unreadable: answered below like an empty upload.
  }
  if (chain.length === 0) throw new ProblemError('tls.pem.invalid', { part: 'certificate' });
  return chain;
}

function parseKey(pem: string): KeyObject {
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(pem)) throw new ProblemError('tls.key.encrypted');
  try {
    return createPrivateKey(pem);
  } catch {
    throw new ProblemError('tls.pem.invalid', { part: 'privateKey' });
  }
}

/**
 * Checks an uploaded certificate before the box presents it: the key belongs to it, each
 * certificate is issued by the next, the chain ends at a root (its own last one or a public one),
 * every certificate is valid now and the first lists the names it serves. Answers the chain.
 */
export function checkCustomCertificate(certificatePem: string, privateKeyPem: string, now: number): X509Certificate[] {
  const chain = parseChain(certificatePem);
  const key = parseKey(privateKeyPem);
  const leaf = chain[0]!;
  const last = chain[chain.length - 1]!;
  if (key.asymmetricKeyType !== leaf.publicKey.asymmetricKeyType || !leaf.checkPrivateKey(key)) throw new ProblemError('tls.key.mismatch');
  chain.slice(1).forEach((issuer, index) => {
    const cert = chain[index]!;
    if (!signedBy(cert, issuer)) throw new ProblemError('tls.chain.order', { index, subject: subjectOf(cert) });
  });
  if (!signedBy(last, last) && !knownRoots().some((root) => signedBy(last, root))) {
    throw new ProblemError('tls.chain.incomplete', { subject: subjectOf(last), issuer: last.issuer.split('\n').filter(Boolean).join(', ') });
  }
  for (const cert of chain) {
    if (Date.parse(cert.validFrom) > now)
      throw new ProblemError('tls.certificate.not_yet_valid', { subject: subjectOf(cert), notBefore: new Date(cert.validFrom).toISOString() });
    if (Date.parse(cert.validTo) <= now)
      throw new ProblemError('tls.certificate.expired', { subject: subjectOf(cert), notAfter: new Date(cert.validTo).toISOString() });
  }
  if (namesOf(leaf).length === 0) throw new ProblemError('tls.certificate.no_names');
  return chain;
}
