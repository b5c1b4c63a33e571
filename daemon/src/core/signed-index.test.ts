import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { signDetached, trustedKeys, verifyDetached } from './signed-index.ts';

function testKey(id: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    id,
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

describe('signed indexes', () => {
  const signer = testKey('test-1');
  const dir = mkdtempSync(path.join(tmpdir(), 'cellar-keys-'));
  const keyFile = path.join(dir, 'keys.json');
  writeFileSync(keyFile, JSON.stringify([{ id: signer.id, publicKey: signer.publicPem }]));
  const index = Buffer.from('{"apps":[]}\n');

  it('trusts the project key alone, and the file keys only when given', () => {
    expect(trustedKeys(null).map((k) => k.id)).to.deep.equal(['cellar-2026']);
    expect(trustedKeys(keyFile).map((k) => k.id)).to.deep.equal(['cellar-2026', 'test-1']);
  });

  it('accepts the exact bytes signed by a trusted key', () => {
    const sig = signDetached(index, signer.privatePem, signer.id);
    expect(verifyDetached(index, sig, trustedKeys(keyFile))).to.deep.equal({ ok: true, keyId: 'test-1' });
  });

  it('refuses a missing, malformed, unknown-key or wrong signature, and a changed byte', () => {
    const keys = trustedKeys(keyFile);
    const sig = signDetached(index, signer.privatePem, signer.id);
    expect(verifyDetached(index, null, keys)).to.deep.equal({ ok: false, reason: 'missing' });
    expect(verifyDetached(index, 'not json', keys)).to.deep.equal({ ok: false, reason: 'malformed' });
    expect(verifyDetached(index, JSON.stringify({ keyId: 'test-1', signature: 'AAAA' }), keys)).to.deep.equal({ ok: false, reason: 'malformed' });
    expect(verifyDetached(index, sig, trustedKeys(null))).to.deep.equal({ ok: false, reason: 'unknown_key' });
    const other = testKey('test-1');
    expect(verifyDetached(index, signDetached(index, other.privatePem, 'test-1'), keys)).to.deep.equal({ ok: false, reason: 'invalid' });
    const changed = Buffer.from(index);
    changed.writeUInt8(changed.readUInt8(2) ^ 1, 2);
    expect(verifyDetached(changed, sig, keys)).to.deep.equal({ ok: false, reason: 'invalid' });
  });

  it('refuses a key file that is not a list of Ed25519 keys', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    writeFileSync(path.join(dir, 'rsa.json'), JSON.stringify([{ id: 'r', publicKey: rsa }]));
    expect(() => trustedKeys(path.join(dir, 'rsa.json'))).to.throw(/Ed25519/);
  });
});
