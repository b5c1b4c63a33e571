import { isIP } from 'node:net';
import forge from 'node-forge';
import type { TlsScope } from '../../../../shared/src/api/tls.ts';
import {
  buildCertificate,
  caExtensions,
  certificateToPem,
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

/** The authority as it is kept: both certificates and keys in PEM (the store encrypts the keys at rest). */
export interface AuthorityMaterial {
  rootPem: string;
  rootKeyPem: string;
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
 * every server certificate, limited by name constraints to the scope.
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
    extensions: caExtensions(1),
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
    rootKeyPem: rootKeys.privateKeyPem,
    intermediatePem: certificateToPem(intermediate),
    intermediateKeyPem: intermediateKeys.privateKeyPem,
    localDomain: options.localDomain,
    scope,
  };
}

function intermediateSigner(authority: AuthorityMaterial): Signer {
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
