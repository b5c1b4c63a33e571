import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TotpCipher } from './totp-cipher.ts';

describe('TOTP secrets sealed with AES-256-GCM', () => {
  let dir: string;
  let keyFile: string;
  const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-totp-key-'));
    keyFile = path.join(dir, 'totp-key');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('makes a 0600 key file of 32 bytes on first use and reuses it', () => {
    const sealed = TotpCipher.fromKeyFile(keyFile).seal(7, secret);
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64url')).to.have.length(32);
    expect(TotpCipher.fromKeyFile(keyFile).open(7, sealed)).to.equal(secret);
  });

  it('stores a version prefix and no trace of the secret; every sealing uses a fresh iv', () => {
    const cipher = TotpCipher.fromKeyFile(keyFile);
    const a = cipher.seal(7, secret);
    const b = cipher.seal(7, secret);
    expect(a).to.match(/^v1:[A-Za-z0-9_-]+$/);
    expect(a).to.not.include(secret).and.not.include(secret.slice(0, 8));
    expect(a).to.not.equal(b);
    expect(TotpCipher.isSealed(a)).to.equal(true);
    expect(TotpCipher.isSealed(secret)).to.equal(false);
  });

  it('refuses a changed ciphertext, tag or iv, another user id, another key and plain text', () => {
    const cipher = TotpCipher.fromKeyFile(keyFile);
    const sealed = cipher.seal(7, secret);
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    for (const at of [0, 12, raw.length - 1]) {
      const changed = Buffer.from(raw);
      changed[at] = changed[at]! ^ 1;
      expect(cipher.open(7, `v1:${changed.toString('base64url')}`), `byte ${at}`).to.equal(null);
    }
    expect(cipher.open(8, sealed)).to.equal(null);
    expect(TotpCipher.fromKeyFile(path.join(dir, 'other-key')).open(7, sealed)).to.equal(null);
    expect(cipher.open(7, secret)).to.equal(null);
    expect(cipher.open(7, 'v1:')).to.equal(null);
    expect(cipher.open(7, 'v1:!!not base64!!')).to.equal(null);
  });
});
