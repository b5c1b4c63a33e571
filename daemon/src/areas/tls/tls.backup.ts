import { createPrivateKey, X509Certificate } from 'node:crypto';
import Joi from 'joi';
import { ProblemError } from '../../core/problem-error.ts';
import type { BackupPart } from '../backup-part.ts';
import { checkLocalDomain, isPublicName } from './local-domain.ts';
import { constrainedTo, hasNameConstraints } from './pki.ts';
import { privateRange } from './scope.ts';
import type { TlsSnapshot, TlsStore } from './tls-store.ts';

const pem = () =>
  Joi.string()
    .max(64 * 1024)
    .pattern(/-----BEGIN [A-Z ]+-----/);
const keyed = Joi.object({ certificatePem: pem().required(), privateKeyPem: pem().required() });

/** A part as backups hold it: those of versions before the constrained root carry the root's key too. */
type BackupSnapshot = Omit<TlsSnapshot, 'authority'> & { authority: (NonNullable<TlsSnapshot['authority']> & { rootKeyPem?: string }) | null };

const snapshotSchema = Joi.object<BackupSnapshot, true>({
  authority: Joi.object({
    rootPem: pem().required(),
    // Read from older backups, never restored: no root key is kept (see the authority's docs).
    rootKeyPem: pem(),
    intermediatePem: pem().required(),
    intermediateKeyPem: pem().required(),
    localDomain: Joi.string().max(253).required(),
    scope: Joi.object({
      dnsNames: Joi.array().items(Joi.string().max(253)).required(),
      ipRanges: Joi.array().items(Joi.string().max(64)).required(),
    }).required(),
  })
    .allow(null)
    .required(),
  box: keyed.allow(null).required(),
  custom: keyed.allow(null).required(),
  settings: Joi.object({
    extraNames: Joi.array().items(Joi.string().max(253)).max(100).required(),
    nextIssuedId: Joi.number().integer().min(1).required(),
    replacedAuthority: Joi.object({ replacedAt: Joi.string().isoDate().required(), previousRootFingerprint: Joi.string().max(200).required() }).allow(null),
    revoked: Joi.array()
      .items(Joi.object({ serial: Joi.string().hex().max(64).required(), revokedAt: Joi.string().isoDate().required() }))
      .max(10_000),
  }).required(),
  issued: Joi.array()
    .items(Joi.object({ id: Joi.number().integer().min(1).required(), createdAt: Joi.string().isoDate().required(), certificatePem: pem().required() }))
    .max(10_000)
    .required(),
});

/** The first PEM that neither Node's X.509 parser nor its key parser reads, by where it is in the part; null when all read. */
function unreadable(value: BackupSnapshot): string | null {
  const certificates: [string, string][] = [];
  const keys: [string, string][] = [];
  if (value.authority) {
    certificates.push(['authority.rootPem', value.authority.rootPem], ['authority.intermediatePem', value.authority.intermediatePem]);
    keys.push(['authority.intermediateKeyPem', value.authority.intermediateKeyPem]);
  }
  for (const name of ['box', 'custom'] as const) {
    const material = value[name];
    if (!material) continue;
    certificates.push([`${name}.certificatePem`, material.certificatePem]);
    keys.push([`${name}.privateKeyPem`, material.privateKeyPem]);
  }
  value.issued.forEach((record, index) => certificates.push([`issued[${index}].certificatePem`, record.certificatePem]));
  const reads = (parse: (pem: string) => unknown, pem: string) => {
    try {
      parse(pem);
      return true;
    } catch {
      return false;
    }
  };
  const bad = certificates.find(([, pem]) => !reads((p) => new X509Certificate(p), pem)) ?? keys.find(([, pem]) => !reads((p) => createPrivateKey(p), pem));
  return bad?.[0] ?? null;
}

/**
 * The rules a new authority's scope is made by, for one from a backup: a public local domain or
 * scope name (tls.domain.public) or a range beyond the private ones would let the restored
 * authority sign for names and addresses of the whole Internet.
 */
function checkScope(authority: NonNullable<BackupSnapshot['authority']>): void {
  checkLocalDomain(authority.localDomain);
  const local = authority.localDomain.toLowerCase();
  for (const name of authority.scope.dnsNames) {
    const lower = name.toLowerCase();
    if (lower === local || lower === 'localhost') continue;
    if (isPublicName(lower)) throw new ProblemError('tls.domain.public', { domain: name });
  }
  const wide = authority.scope.ipRanges.find((range) => !privateRange(range));
  if (wide !== undefined)
    throw new ProblemError('backup.part.invalid', { part: 'tls' }, { detail: `the authority's scope holds ${wide}, beyond the private ranges` });
  // The scope is what the box issues for; the intermediate's constraints are what devices accept: one and the same.
  if (!constrainedTo(authority.intermediatePem, authority.scope))
    throw new ProblemError('backup.part.invalid', { part: 'tls' }, { detail: "the intermediate's name constraints are not the authority's scope" });
  // A root without constraints is one made before they were added: restored, then replaced at the start that follows.
  if (hasNameConstraints(authority.rootPem) && !constrainedTo(authority.rootPem, authority.scope))
    throw new ProblemError('backup.part.invalid', { part: 'tls' }, { detail: "the root's name constraints are not the authority's scope" });
}

/** The part without the root key an older backup carries: it is never written to this box. */
function withoutRootKey(value: BackupSnapshot): TlsSnapshot {
  if (!value.authority) return { ...value, authority: null };
  const { rootKeyPem: _dropped, ...authority } = value.authority;
  return { ...value, authority };
}

/**
 * The box's certificates and its authority (the `tls` part): the TLS folder as a whole, keys in the
 * clear inside the encrypted backup and sealed again with this data directory's key on restore.
 * The files are written once the rows are in; the restart that follows every restore serves them.
 * The part holds the intermediate's key, never the root's: an authority of an older backup (a root
 * without name constraints, its key beside) is restored without that key and replaced at the
 * restart, with the warning to trust the new root, like the box's own old authority.
 */
export function tlsBackupPart(store: TlsStore): BackupPart<TlsSnapshot> {
  return {
    name: 'tls',
    export: async () => store.snapshot(),
    async inspect(raw) {
      const { value, error } = snapshotSchema.validate(raw);
      if (error) throw new ProblemError('backup.part.invalid', { part: 'tls' }, { detail: error.message });
      // Checked now, not at restore: a key that does not read would fail once the rows are in.
      const bad = unreadable(value);
      if (bad) throw new ProblemError('backup.part.invalid', { part: 'tls' }, { detail: `${bad} is not a readable certificate or key` });
      if (value.authority) checkScope(value.authority);
      return {
        data: withoutRootKey(value),
        counts: { authority: value.authority ? 1 : 0, customCertificates: value.custom ? 1 : 0, issuedCertificates: value.issued.length },
      };
    },
    async restore() {
      // Nothing in the database: the folder is written by apply().
    },
    async apply(data) {
      store.restore(data);
    },
  };
}
