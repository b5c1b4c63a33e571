import Joi from 'joi';
import { id, isoTime } from '../common.ts';
import { defineRoute } from '../route.ts';

/** Limits of the TLS area. */
export const tlsLimits = {
  namesMax: 50,
  /** Browsers refuse server certificates that live longer than 398 days. */
  lifetimeDaysMax: 397,
  pemMax: 64 * 1024,
} as const;

/** One certificate as the box describes it; never its key. */
export interface CertificateInfo {
  subject: string;
  issuer: string;
  /** DNS names and IP addresses of its subjectAltName. */
  names: string[];
  notBefore: string;
  notAfter: string;
  serial: string;
  /** SHA-256 of the DER certificate, as colon-separated upper-case hex (what browsers and openssl show). */
  sha256Fingerprint: string;
}

/** What the authority may sign: DNS subtrees and IP ranges (its name constraints). */
export interface TlsScope {
  dnsNames: string[];
  ipRanges: string[];
}

export interface IssuedCertificate extends CertificateInfo {
  id: number;
  createdAt: string;
  /** When it was put on the revocation list, or null. */
  revokedAt: string | null;
}

/** The box replaced an authority made before its root carried name constraints: devices must drop the old root and trust the new one. */
export interface TlsAuthorityReplacement {
  replacedAt: string;
  /** SHA-256 fingerprint of the old root, as devices show it. */
  previousRootFingerprint: string;
}

export interface TlsSettings {
  /** Whether the web interface speaks HTTPS. */
  https: boolean;
  presented: { source: 'box' | 'custom'; certificate: CertificateInfo };
  authority: { root: CertificateInfo; intermediate: CertificateInfo; scope: TlsScope; localDomain: string; replaced: TlsAuthorityReplacement | null };
  /** Names of the box's certificate: the ones the box finds itself and the extra ones of PUT .../names. */
  names: { automatic: string[]; extra: string[] };
  box: CertificateInfo;
  custom: CertificateInfo | null;
  issued: IssuedCertificate[];
}

export interface CreateAuthorityRequest {
  /** The local domain the authority's scope covers (default `local`). */
  localDomain?: string;
}

export interface TlsNamesRequest {
  names: string[];
}

export interface CustomCertificateRequest {
  /** The server certificate first, then each issuer in order. */
  certificate: string;
  /** Unencrypted private key in PEM. */
  privateKey: string;
}

export interface IssueCertificateRequest {
  names: string[];
  lifetimeDays?: number;
}

/** Answered once: the box keeps no copy of the key. */
export interface IssuedCertificateFiles {
  id: number;
  certificate: string;
  chain: string;
  privateKey: string;
  info: CertificateInfo;
}

/** A DNS name (optionally a leading wildcard label) or an IP address. */
export const tlsName = () =>
  Joi.alternatives(
    Joi.string().ip({ cidr: 'forbidden' }),
    Joi.string()
      .max(253)
      .pattern(/^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i),
  );

const domainLabel = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export const certificateInfo = Joi.object<CertificateInfo, true>({
  subject: Joi.string().allow('').required(),
  issuer: Joi.string().allow('').required(),
  names: Joi.array().items(Joi.string()).required(),
  notBefore: isoTime().required(),
  notAfter: isoTime().required(),
  serial: Joi.string().required(),
  sha256Fingerprint: Joi.string().required(),
});

const issuedCertificate = Joi.object<IssuedCertificate, true>({
  id: id().required(),
  createdAt: isoTime().required(),
  subject: Joi.string().allow('').required(),
  issuer: Joi.string().allow('').required(),
  names: Joi.array().items(Joi.string()).required(),
  notBefore: isoTime().required(),
  notAfter: isoTime().required(),
  serial: Joi.string().required(),
  sha256Fingerprint: Joi.string().required(),
  revokedAt: isoTime().allow(null).required(),
}).id('IssuedCertificate');

export const tlsSettings = Joi.object<TlsSettings, true>({
  https: Joi.boolean().required(),
  presented: Joi.object({ source: Joi.string().valid('box', 'custom').required(), certificate: certificateInfo.required() }).required(),
  authority: Joi.object({
    root: certificateInfo.required(),
    intermediate: certificateInfo.required(),
    scope: Joi.object({ dnsNames: Joi.array().items(Joi.string()).required(), ipRanges: Joi.array().items(Joi.string()).required() }).required(),
    localDomain: Joi.string().required(),
    replaced: Joi.object({ replacedAt: isoTime().required(), previousRootFingerprint: Joi.string().required() }).allow(null).required(),
  }).required(),
  names: Joi.object({ automatic: Joi.array().items(Joi.string()).required(), extra: Joi.array().items(Joi.string()).required() }).required(),
  box: certificateInfo.required(),
  custom: certificateInfo.allow(null).required(),
  issued: Joi.array().items(issuedCertificate).required(),
}).id('TlsSettings');

export const createAuthorityRequest = Joi.object<CreateAuthorityRequest, true>({
  localDomain: Joi.string().max(200).pattern(domainLabel),
}).id('CreateAuthorityRequest');

export const tlsNamesRequest = Joi.object<TlsNamesRequest, true>({
  names: Joi.array().items(tlsName()).max(tlsLimits.namesMax).unique().required(),
}).id('TlsNamesRequest');

export const customCertificateRequest = Joi.object<CustomCertificateRequest, true>({
  certificate: Joi.string().max(tlsLimits.pemMax).required(),
  privateKey: Joi.string().max(tlsLimits.pemMax).required(),
}).id('CustomCertificateRequest');

export const issueCertificateRequest = Joi.object<IssueCertificateRequest, true>({
  names: Joi.array().items(tlsName()).min(1).max(tlsLimits.namesMax).unique().required(),
  lifetimeDays: Joi.number().integer().min(1).max(tlsLimits.lifetimeDaysMax),
}).id('IssueCertificateRequest');

export const issuedCertificateFiles = Joi.object<IssuedCertificateFiles, true>({
  id: id().required(),
  certificate: Joi.string().required(),
  chain: Joi.string().required(),
  privateKey: Joi.string().required(),
  info: certificateInfo.required(),
}).id('IssuedCertificateFiles');

const idParams = Joi.object<{ id: number }, true>({ id: id().required() });

export const tlsRoutes = {
  settings: defineRoute({
    id: 'tls.settings',
    method: 'GET',
    path: '/api/system/tls',
    access: 'admin',
    summary:
      'Whether the web interface speaks HTTPS, the presented certificate, the authority and its scope, the box names, the uploaded and the issued certificates',
    status: 200,
    response: tlsSettings,
    errors: [],
  }),
  createAuthority: defineRoute({
    id: 'tls.createAuthority',
    method: 'POST',
    path: '/api/system/tls/authority',
    access: 'admin',
    summary: "Replaces the authority with a new root and intermediate and reissues the box's certificate; every device must trust the new root",
    body: createAuthorityRequest,
    status: 200,
    response: tlsSettings,
    errors: ['tls.domain.public'],
  }),
  setCustom: defineRoute({
    id: 'tls.setCustom',
    method: 'PUT',
    path: '/api/system/tls/custom',
    access: 'admin',
    summary: 'Uploads a certificate with its chain and unencrypted key in PEM; presented while valid, then the box presents its own again',
    body: customCertificateRequest,
    bodyLimit: 2 * tlsLimits.pemMax + 1024,
    status: 200,
    response: tlsSettings,
    errors: [
      'tls.pem.invalid',
      'tls.key.encrypted',
      'tls.key.mismatch',
      'tls.chain.order',
      'tls.chain.incomplete',
      'tls.certificate.expired',
      'tls.certificate.not_yet_valid',
      'tls.certificate.no_names',
    ],
  }),
  clearCustom: defineRoute({
    id: 'tls.clearCustom',
    method: 'DELETE',
    path: '/api/system/tls/custom',
    access: 'admin',
    summary: 'Removes the uploaded certificate; the box presents its own',
    status: 200,
    response: tlsSettings,
    errors: [],
  }),
  issue: defineRoute({
    id: 'tls.issue',
    method: 'POST',
    path: '/api/system/tls/issued',
    access: 'admin',
    summary: "Issues a server certificate for another device, never for the box's own names; the answer holds the private key, which the box does not keep",
    body: issueCertificateRequest,
    status: 200,
    response: issuedCertificateFiles,
    errors: ['tls.name.out_of_scope', 'tls.name.box_own'],
  }),
  removeIssued: defineRoute({
    id: 'tls.removeIssued',
    method: 'DELETE',
    path: '/api/system/tls/issued/{id}',
    access: 'admin',
    summary: 'Removes an issued certificate from the list; unless revoked first, it stays valid until it ends',
    params: idParams,
    status: 204,
    errors: ['tls.issued.not_found'],
  }),
  revokeIssued: defineRoute({
    id: 'tls.revokeIssued',
    method: 'POST',
    path: '/api/system/tls/issued/{id}/revoke',
    access: 'admin',
    summary: 'Revokes an issued certificate: its serial goes on the revocation list (GET .../revoked.crl) for good; it stays listed, marked revoked',
    params: idParams,
    status: 204,
    errors: ['tls.issued.not_found'],
  }),
  revocationList: defineRoute({
    id: 'tls.revocationList',
    method: 'GET',
    path: '/api/system/tls/revoked.crl',
    access: 'public',
    summary: "The intermediate's certificate revocation list in PEM, signed afresh and valid for a week, for devices and programs that check one",
    status: 200,
    response: { raw: true, contentType: 'application/x-pem-file' },
    errors: [],
  }),
  issuedPem: defineRoute({
    id: 'tls.issuedPem',
    method: 'GET',
    path: '/api/system/tls/issued/{id}/certificate.pem',
    access: 'admin',
    summary: 'An issued certificate with its intermediate, without key',
    params: idParams,
    status: 200,
    response: { raw: true, contentType: 'application/x-pem-file' },
    errors: ['tls.issued.not_found'],
  }),
  setNames: defineRoute({
    id: 'tls.setNames',
    method: 'PUT',
    path: '/api/system/tls/names',
    access: 'admin',
    summary: "Extra names the box's certificate covers; each must lie inside the authority's scope; the certificate is reissued at once",
    body: tlsNamesRequest,
    status: 200,
    response: tlsSettings,
    errors: ['tls.name.out_of_scope'],
  }),
  rootCa: defineRoute({
    id: 'tls.rootCa',
    method: 'GET',
    path: '/api/system/tls/root-ca.crt',
    access: 'public',
    summary: "The authority's root in PEM, for devices to trust (also before sign-in)",
    status: 200,
    response: { raw: true, contentType: 'application/x-x509-ca-cert' },
    errors: [],
  }),
};
