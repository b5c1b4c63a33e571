import { isIP } from 'node:net';
import forge from 'node-forge';
import type { TlsScope } from '../../../../shared/src/api/tls/tls.ts';
import {
  buildCertificate,
  caExtensions,
  certificateToPem,
  constrainedTo,
  generateKeyPair,
  keyPairFromPem,
  nameConstraintsExtension,
  serverExtensions,
  type Signer,
} from './pki.ts';
import { scopeFor } from './scope.ts';

const dayMs = 24 * 60 * 60 * 1000;
const rootYears = 20;
const intermediateYears = 10;
/** Certificates start a little in the past, so a device whose clock runs behind accepts them at once. */
const backdateMs = 60 * 60 * 1000;

/**
 * The authority as it is kept: both certificates, and the intermediate's key in PEM (the store
 * encrypts it at rest). The root's key is not here: it signs the intermediate once and is dropped.
 */
export interface AuthorityMaterial {
  rootPem: string;
  intermediatePem: string;
  intermediateKeyPem: string;
  localDomain: string;
  scope: TlsScope;
}

export interface IssuedMaterial {
  certificatePem: string;
  privateKeyPem: string;
}

const years = (from: number, n: number) => new Date(from + n * 365 * dayMs);

/**
 * A new root, long-lived and only signing its intermediate, and an intermediate that signs
 * every server certificate. Both carry the scope as critical name constraints, so no certificate
 * below the root verifies for a name outside it, whoever holds a key. The root's key signs the
 * intermediate here and is never written or exported: nothing the box holds or a backup carries
 * can make another intermediate (the intermediate's path length allows no CA below it).
 */
export async function createAuthority(options: { now: number; hostname: string; localDomain: string }): Promise<AuthorityMaterial> {
  const scope = scopeFor(options.hostname, options.localDomain);
  const [rootKeys, intermediateKeys] = await Promise.all([generateKeyPair(3072), generateKeyPair(2048)]);
  const notBefore = new Date(options.now - backdateMs);
  const stamp = new Date(options.now).toISOString().slice(0, 10);
  const root = buildCertificate({
    commonName: `Cellar root ${options.hostname} ${stamp}`,
    keys: rootKeys,
    notBefore,
    notAfter: years(options.now, rootYears),
    issuer: null,
    extensions: [...caExtensions(1), nameConstraintsExtension(scope)],
  });
  const intermediate = buildCertificate({
    commonName: `Cellar intermediate ${options.hostname} ${stamp}`,
    keys: intermediateKeys,
    notBefore,
    notAfter: years(options.now, intermediateYears),
    issuer: { certificate: root, keys: rootKeys },
    extensions: [...caExtensions(0), nameConstraintsExtension(scope)],
  });
  return {
    rootPem: certificateToPem(root),
    intermediatePem: certificateToPem(intermediate),
    intermediateKeyPem: intermediateKeys.privateKeyPem,
    localDomain: options.localDomain,
    scope,
  };
}

/**
 * Whether an authority is of the kind made before the root was constrained: its root vouches
 * for any name (or not exactly for its scope), so it must be replaced and trusted anew.
 */
export function outdatedAuthority(authority: Pick<AuthorityMaterial, 'rootPem' | 'scope'>): boolean {
  return !constrainedTo(authority.rootPem, authority.scope);
}

/** The intermediate with its key: it signs server certificates and the revocation list. */
export function intermediateSigner(authority: AuthorityMaterial): Signer {
  return { certificate: forge.pki.certificateFromPem(authority.intermediatePem), keys: keyPairFromPem(authority.intermediateKeyPem) };
}

/** A server certificate for the names, signed by the intermediate; the caller checks the scope first. */
export async function issueServerCertificate(
  authority: AuthorityMaterial,
  names: readonly string[],
  options: { now: number; lifetimeDays: number },
): Promise<IssuedMaterial> {
  const keys = await generateKeyPair(2048);
  // A common name that is not a host name keeps verifiers from checking it against the DNS constraints.
  const commonName = names.find((n) => !isIP(n)) ?? 'Cellar device';
  const cert = buildCertificate({
    commonName,
    keys,
    notBefore: new Date(options.now - backdateMs),
    notAfter: new Date(options.now + options.lifetimeDays * dayMs),
    issuer: intermediateSigner(authority),
    extensions: serverExtensions(names),
  });
  return { certificatePem: certificateToPem(cert), privateKeyPem: keys.privateKeyPem };
}
