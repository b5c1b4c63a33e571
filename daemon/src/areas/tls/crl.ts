import forge from 'node-forge';
import type { Signer } from './pki.ts';

const { asn1, pki } = forge;
const { Class, Type } = asn1;

export interface RevokedEntry {
  /** The certificate's serial number in hex. */
  serial: string;
  revokedAt: string;
}

/** How long a client may keep one CRL before it asks again. */
const crlLifetimeMs = 7 * 24 * 60 * 60 * 1000;

const sequence = (items: forge.asn1.Asn1[]) => asn1.create(Class.UNIVERSAL, Type.SEQUENCE, true, items);
const time = (date: Date) =>
  date.getUTCFullYear() < 2050
    ? asn1.create(Class.UNIVERSAL, Type.UTCTIME, false, asn1.dateToUtcTime(date))
    : asn1.create(Class.UNIVERSAL, Type.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(date));

/** A positive DER INTEGER from hex: a leading zero byte where the top bit is set. */
function integer(hex: string): forge.asn1.Asn1 {
  let even = hex.length % 2 ? `0${hex}` : hex;
  if (parseInt(even.slice(0, 2), 16) & 0x80) even = `00${even}`;
  return asn1.create(Class.UNIVERSAL, Type.INTEGER, false, forge.util.hexToBytes(even));
}

function extension(oid: string, value: forge.asn1.Asn1): forge.asn1.Asn1 {
  const octets = asn1.create(Class.UNIVERSAL, Type.OCTETSTRING, false, asn1.toDer(value).getBytes());
  return sequence([asn1.create(Class.UNIVERSAL, Type.OID, false, asn1.oidToDer(oid).getBytes()), octets]);
}

/**
 * The intermediate's certificate revocation list (RFC 5280 v2 CRL, SHA-256 with RSA) in PEM:
 * every revoked serial, valid for a week from `now`, numbered by the time it was made so each
 * newer list has a higher number. node-forge reads CRLs but does not write them.
 */
export function buildCrl(signer: Signer, revoked: readonly RevokedEntry[], now: number): string {
  const algorithm = sequence([
    asn1.create(Class.UNIVERSAL, Type.OID, false, asn1.oidToDer(pki.oids.sha256WithRSAEncryption!).getBytes()),
    asn1.create(Class.UNIVERSAL, Type.NULL, false, ''),
  ]);
  const keyIdentifier = signer.certificate.generateSubjectKeyIdentifier().getBytes();
  const extensions = asn1.create(Class.CONTEXT_SPECIFIC, 0, true, [
    sequence([
      extension('2.5.29.35', sequence([asn1.create(Class.CONTEXT_SPECIFIC, 0, false, keyIdentifier)])),
      extension('2.5.29.20', integer(now.toString(16))),
    ]),
  ]);
  const entries = revoked.map((entry) => sequence([integer(entry.serial), time(new Date(entry.revokedAt))]));
  const tbs = sequence([
    integer('01'),
    algorithm,
    pki.distinguishedNameToAsn1(signer.certificate.subject),
    time(new Date(now)),
    time(new Date(now + crlLifetimeMs)),
    ...(entries.length > 0 ? [sequence(entries)] : []),
    extensions,
  ]);
  const md = forge.md.sha256.create();
  md.update(asn1.toDer(tbs).getBytes());
  const signature = asn1.create(Class.UNIVERSAL, Type.BITSTRING, false, `\u0000${signer.keys.privateKey.sign(md)}`);
  const der = asn1.toDer(sequence([tbs, algorithm, signature])).getBytes();
  return forge.pem.encode({ type: 'X509 CRL', body: der }).replace(/\r\n/g, '\n');
}
