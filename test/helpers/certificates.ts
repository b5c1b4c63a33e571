import { createPrivateKey } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';
import { createAuthority, issueServerCertificate, type AuthorityMaterial } from '../../daemon/src/areas/tls/authority.ts';
import {
  buildCertificate,
  caExtensions,
  certificateToPem,
  generateKeyPair,
  keyPairFromPem,
  nameConstraintsExtension,
  serverExtensions,
} from '../../daemon/src/areas/tls/pki.ts';
import { scopeFor } from '../../daemon/src/areas/tls/scope.ts';
import { TlsStore } from '../../daemon/src/areas/tls/tls-store.ts';

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

/** An authority as versions before the constrained root made it: the root without name constraints, and its key. */
export async function legacyAuthority(options: { hostname: string; localDomain: string }): Promise<AuthorityMaterial & { rootKeyPem: string }> {
  const scope = scopeFor(options.hostname, options.localDomain);
  const [rootKeys, intermediateKeys] = await Promise.all([generateKeyPair(2048), generateKeyPair(2048)]);
  const notBefore = new Date(Date.now() - dayMs);
  const notAfter = new Date(Date.now() + 3650 * dayMs);
  const root = buildCertificate({ commonName: 'Cellar root (old kind)', keys: rootKeys, notBefore, notAfter, issuer: null, extensions: caExtensions(1) });
  const intermediate = buildCertificate({
    commonName: 'Cellar intermediate (old kind)',
    keys: intermediateKeys,
    notBefore,
    notAfter,
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

/** Writes an old-kind authority into a data directory's TLS folder as those versions kept it: the root's key sealed beside the intermediate's. */
export function writeLegacyAuthority(dataDir: string, legacy: AuthorityMaterial & { rootKeyPem: string }): void {
  new TlsStore(path.join(dataDir, 'tls'), path.join(dataDir, 'tls-secret')).writeAuthority(legacy);
  const file = path.join(dataDir, 'tls', 'authority.json');
  const passphrase = readFileSync(path.join(dataDir, 'tls-secret'), 'utf8').trim();
  const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  stored.rootKeyPem = createPrivateKey(legacy.rootKeyPem).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase });
  writeFileSync(file, JSON.stringify(stored, null, 2));
}

/** Every private key (PEM) anywhere in a value: the store's snapshot, a backup's part. */
export function privateKeysIn(value: unknown): string[] {
  if (typeof value === 'string') return /-----BEGIN (RSA |ENCRYPTED )?PRIVATE KEY-----/.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(privateKeysIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(privateKeysIn);
  return [];
}

/**
 * What an attacker holding `keyPem` tries, for a certificate for `name` that devices trusting the
 * root accept: a leaf signed by the key under the name of the root or of the intermediate, and a
 * new intermediate without name constraints signed the same way, with a leaf below it.
 */
export async function forgeries(
  name: string,
  keyPem: string,
  authority: { rootPem: string; intermediatePem: string },
): Promise<{ label: string; chain: string; leaf: string }[]> {
  const keys = keyPairFromPem(keyPem);
  const attempts: { label: string; chain: string; leaf: string }[] = [];
  const notBefore = new Date(Date.now() - dayMs);
  const notAfter = new Date(Date.now() + 30 * dayMs);
  for (const [issuerName, issuerPem] of [
    ['root', authority.rootPem],
    ['intermediate', authority.intermediatePem],
  ] as const) {
    const issuer = { certificate: forge.pki.certificateFromPem(issuerPem), keys };
    const leafKeys = await generateKeyPair(2048);
    const leaf = buildCertificate({ commonName: name, keys: leafKeys, notBefore, notAfter, issuer, extensions: serverExtensions([name]) });
    attempts.push({ label: `leaf under the ${issuerName}`, chain: authority.intermediatePem, leaf: certificateToPem(leaf) });
    const ca = buildCertificate({ commonName: 'Anything CA', keys: leafKeys, notBefore, notAfter, issuer, extensions: caExtensions(0) });
    const below = buildCertificate({
      commonName: name,
      keys: await generateKeyPair(2048),
      notBefore,
      notAfter,
      issuer: { certificate: ca, keys: leafKeys },
      extensions: serverExtensions([name]),
    });
    attempts.push({
      label: `new intermediate under the ${issuerName}`,
      chain: certificateToPem(ca) + authority.intermediatePem,
      leaf: certificateToPem(below),
    });
  }
  return attempts;
}
