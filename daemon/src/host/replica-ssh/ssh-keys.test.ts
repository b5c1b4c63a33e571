import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { authorizedKeysLine } from './replica-account.ts';
import { parseEd25519Line, sshFingerprint } from './ssh-keys.ts';

describe('replication SSH keys: key lines, fingerprints, authorized_keys lines', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cellar-ssh-keys-'));
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'a comment', '-f', path.join(dir, 'key')]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads an ed25519 line without its comment and gives the fingerprint ssh-keygen shows', () => {
    const line = readFileSync(path.join(dir, 'key.pub'), 'utf8');
    const key = parseEd25519Line(line);
    expect(key).to.deep.equal({ type: 'ssh-ed25519', blob: line.split(' ')[1] });
    const shown = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', path.join(dir, 'key.pub')], { encoding: 'utf8' }).split(' ')[1];
    expect(sshFingerprint(key!)).to.equal(shown);
  });

  it('refuses other key types, options before the key, two lines, and a blob of another type', () => {
    const [, blob] = readFileSync(path.join(dir, 'key.pub'), 'utf8').split(' ');
    const rsaBlob = Buffer.concat([Buffer.from([0, 0, 0, 7]), Buffer.from('ssh-rsa'), Buffer.alloc(40)]).toString('base64');
    for (const bad of [
      `ssh-rsa ${blob}`,
      `command="id" ssh-ed25519 ${blob}`,
      `ssh-ed25519 ${blob} x\nssh-ed25519 ${blob}`,
      `ssh-ed25519 ${rsaBlob}`,
      'ssh-ed25519 AAAA',
      '',
    ])
      expect(parseEd25519Line(bad), bad).to.equal(null);
  });

  it('writes the restrict line with the forced command, and refuses a word the shell would read', () => {
    const line = authorizedKeysLine({
      command: ['/usr/bin/node', '/opt/x.js', 'id-1', 'tank/replica'],
      key: 'ssh-ed25519 AAAA',
      comment: 'cellar-pairing-id-1',
    });
    expect(line).to.equal('restrict,command="/usr/bin/node /opt/x.js id-1 tank/replica" ssh-ed25519 AAAA cellar-pairing-id-1');
    for (const word of ['a b', 'a"b', 'a;b', '$(id)', '`id`', 'a\nb', "a'b"])
      expect(() => authorizedKeysLine({ command: ['/usr/bin/node', word], key: 'k', comment: 'c' }), word).to.throw(/shell/);
  });
});
