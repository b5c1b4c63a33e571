import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Joi from 'joi';

/**
 * Detached Ed25519 signatures over an index file: the project's store catalogs and the box's
 * update channels are signed the same way and verified by this one module. The signature file
 * sits beside the index (`index.json.sig`) and holds `{ "keyId": "...", "signature": "<base64>" }`,
 * so keys can be rotated: the daemon trusts a small ring of keys by id.
 */

export interface TrustedKey {
  id: string;
  key: KeyObject;
}

export type SignatureCheck = { ok: true; keyId: string } | { ok: false; reason: 'missing' | 'malformed' | 'unknown_key' | 'invalid' };

/** The project's signing keys, built into the daemon. The private halves never live in the repository. */
const projectKeys: readonly { id: string; publicKey: string }[] = [
  {
    id: 'cellar-2026',
    publicKey: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAzPYX0rNFGw5ExEERfCCkjz5bOpvK5acVZo++kf8yGKw=\n-----END PUBLIC KEY-----\n',
  },
];

const signatureSchema = Joi.object({
  keyId: Joi.string().max(100).required(),
  signature: Joi.string().base64().max(200).required(),
});

const keyFileSchema = Joi.array()
  .items(Joi.object({ id: Joi.string().max(100).required(), publicKey: Joi.string().max(2000).required() }))
  .max(20);

function ed25519PublicKey(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 public key');
  return key;
}

/**
 * The keys a daemon trusts: the project's, plus those of `trustedKeysFile` (development mode only;
 * the configuration refuses it on a box) so tests can sign catalogs and update channels themselves.
 */
export function trustedKeys(trustedKeysFile: string | null): TrustedKey[] {
  const keys = projectKeys.map((k) => ({ id: k.id, key: ed25519PublicKey(k.publicKey) }));
  return trustedKeysFile === null ? keys : [...keys, ...keysOfFile(trustedKeysFile)];
}

/** The keys of a key file: `[{ "id": "...", "publicKey": "-----BEGIN PUBLIC KEY-----..." }]`. */
export function keysOfFile(file: string): TrustedKey[] {
  const parsed = keyFileSchema.validate(JSON.parse(readFileSync(file, 'utf8')));
  if (parsed.error) throw new Error(`${file}: ${parsed.error.message}`);
  return (parsed.value as { id: string; publicKey: string }[]).map((k) => ({ id: k.id, key: ed25519PublicKey(k.publicKey) }));
}

/** Checks `signatureText` (the `.sig` file, or null when there is none) over the index's exact bytes. */
export function verifyDetached(data: Buffer, signatureText: string | null, keys: readonly TrustedKey[]): SignatureCheck {
  if (signatureText === null) return { ok: false, reason: 'missing' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(signatureText);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const { value, error } = signatureSchema.validate(parsed);
  if (error) return { ok: false, reason: 'malformed' };
  const { keyId, signature } = value as { keyId: string; signature: string };
  const trusted = keys.find((k) => k.id === keyId);
  if (!trusted) return { ok: false, reason: 'unknown_key' };
  const bytes = Buffer.from(signature, 'base64');
  if (bytes.length !== 64) return { ok: false, reason: 'malformed' };
  return verify(null, data, trusted.key, bytes) ? { ok: true, keyId } : { ok: false, reason: 'invalid' };
}

/** Makes the `.sig` file's text: used by the scripts that build catalogs and update bundles, and by tests. */
export function signDetached(data: Buffer, privateKeyPem: string, keyId: string): string {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the signing key must be an Ed25519 private key');
  return `${JSON.stringify({ keyId, signature: sign(null, data, key).toString('base64') })}\n`;
}
