import { defineErrors } from './catalog-entry.ts';

/** The box's certificates and its authority (spec 4.14, TLS). */
export const tlsErrors = defineErrors({
  'tls.name.out_of_scope': { status: 422, title: "A name lies outside the authority's scope", params: ['name'] },
  'tls.domain.public': {
    status: 422,
    title: 'The local domain is a public top-level domain or suffix: the authority would cover names of the whole Internet under it',
    params: ['domain'],
  },
  'tls.name.box_own': { status: 422, title: "A device certificate may not cover the box's own names", params: ['name'] },
  'tls.issued.not_found': { status: 404, title: 'There is no such issued certificate', params: ['id'] },
  'tls.pem.invalid': { status: 400, title: 'A part is not readable PEM', params: ['part'] },
  'tls.key.encrypted': { status: 400, title: 'The private key is encrypted; upload it without a passphrase' },
  'tls.key.mismatch': { status: 422, title: 'The private key does not belong to the certificate' },
  'tls.chain.order': { status: 422, title: 'A certificate of the chain is not issued by the one after it', params: ['index', 'subject'] },
  'tls.chain.incomplete': { status: 422, title: 'The chain does not end at a root: add the missing issuer', params: ['subject', 'issuer'] },
  'tls.certificate.expired': { status: 422, title: 'A certificate of the chain has ended', params: ['subject', 'notAfter'] },
  'tls.certificate.not_yet_valid': { status: 422, title: 'A certificate of the chain is not valid yet', params: ['subject', 'notBefore'] },
  'tls.certificate.no_names': { status: 422, title: 'The certificate lists no DNS name or address (subjectAltName)' },
});
