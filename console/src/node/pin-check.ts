import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

/** Why a connection to a box was refused; `otherRoot` is reported to the user as a changed root. */
export type PinVerdict =
  | { accept: true }
  | { accept: false; reason: 'notPinned' | 'nameOutside' | 'chainBroken' | 'expired' }
  | { accept: false; reason: 'otherRoot'; presentedRoot: string | null };

export interface PinCheckRequest {
  /** The name the connection was made to. */
  hostname: string;
  /** The chain the box presented, leaf first, in PEM (Electron's certificate and its issuerCert links). */
  chain: string[];
  /** The root pinned for this box; null before trust. */
  pinnedRootPem: string | null;
  /** The names the box is reached by (its address in the console); any other name is refused. */
  boxNames: string[];
  now: Date;
}

const bare = (name: string) => name.replace(/^\[|\]$/g, '').toLowerCase();

function covers(leaf: X509Certificate, hostname: string): boolean {
  return isIP(hostname) ? leaf.checkIP(hostname) !== undefined : leaf.checkHost(hostname) !== undefined;
}

function current(cert: X509Certificate, now: Date): boolean {
  return Date.parse(cert.validFrom) <= now.getTime() && now.getTime() <= Date.parse(cert.validTo);
}

/** Whether `issuer` is a CA that issued and signed `cert`. */
function signedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  return issuer.ca && cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
}

/**
 * The console's certificate check for a box (Electron's setCertificateVerifyProc calls it): accepts
 * exactly a chain, current at `now`, from a leaf covering a name of the box up to the pinned root,
 * each link issued and signed by the next. The system's trust store plays no part: a certificate
 * from any other root, public or not, is refused.
 */
export function checkPinned(request: PinCheckRequest): PinVerdict {
  if (!request.pinnedRootPem) return { accept: false, reason: 'notPinned' };
  const hostname = bare(request.hostname);
  if (!request.boxNames.map(bare).includes(hostname)) return { accept: false, reason: 'nameOutside' };
  let chain: X509Certificate[];
  try {
    chain = request.chain.map((pem) => new X509Certificate(pem));
  } catch {
    return { accept: false, reason: 'chainBroken' };
  }
  const leaf = chain[0];
  if (!leaf) return { accept: false, reason: 'chainBroken' };
  if (!covers(leaf, hostname)) return { accept: false, reason: 'nameOutside' };
  const root = new X509Certificate(request.pinnedRootPem);
  // Walk up the presented chain until a link is the pinned root or is signed by it.
  for (let i = 0; i < chain.length; i++) {
    const cert = chain[i]!;
    if (!current(cert, request.now)) return { accept: false, reason: 'expired' };
    if (cert.fingerprint256 === root.fingerprint256) return { accept: true };
    if (signedBy(cert, root)) return current(root, request.now) ? { accept: true } : { accept: false, reason: 'expired' };
    const next = chain[i + 1];
    if (!next) break;
    if (!signedBy(cert, next)) return { accept: false, reason: 'chainBroken' };
  }
  const top = chain[chain.length - 1]!;
  const selfSigned = top.checkIssued(top) && top.verify(top.publicKey);
  return { accept: false, reason: 'otherRoot', presentedRoot: selfSigned ? top.fingerprint256 : null };
}
