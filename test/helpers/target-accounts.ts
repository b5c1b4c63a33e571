import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const run = (argv: string[], input?: string | Buffer) => execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });

/** The line of `name` in one of the installed system's colon-separated account files. */
function entry(root: string, file: string, name: string): string[] {
  const line = readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  expect(line, `${name} in ${file}`).to.be.a('string');
  return line!.split(':');
}

/** Samba's NT hash of a password (MD4 of its UTF-16LE form); OpenSSL 3 keeps MD4 in its legacy provider. */
function ntHash(password: string): string {
  const out = run(['openssl', 'dgst', '-md4', '-provider', 'legacy', '-provider', 'default'], Buffer.from(password, 'utf16le'));
  return out.trim().split(' ').pop()!.toUpperCase();
}

/**
 * Checks the installed system (mounted at `root`) has the owner as a box account, read with the
 * target's own tools where a file alone says too little: passwd with the database's uid, the users
 * group, no shell; a shadow hash of the password (checked by the target's crypt); membership of the
 * SMB and SFTP groups; and a Samba passdb entry under that uid with the password's NT hash.
 */
export function expectOwnerAccount(root: string, owner: { username: string; uid: number }, password: string): void {
  const [, , uid, gid, , home, shell] = entry(root, 'etc/passwd', owner.username);
  expect({ uid: Number(uid), gid: Number(gid), home, shell }).to.deep.equal({ uid: owner.uid, gid: 100, home: '/nonexistent', shell: '/usr/sbin/nologin' });
  const hash = entry(root, 'etc/shadow', owner.username)[1]!;
  expect(hash).to.match(/^\$/);
  // Python's crypt is a thin layer over the target's libcrypt, the one PAM checks passwords with.
  const check = 'import crypt, sys; h = sys.argv[1]; print(crypt.crypt(sys.stdin.read(), h) == h)';
  expect(run(['chroot', root, 'python3', '-W', 'ignore', '-c', check, hash], password).trim()).to.equal('True');
  for (const group of ['cellar-smb', 'cellar-sftp']) expect(entry(root, 'etc/group', group)[3]!.split(',')).to.include(owner.username);
  const passdb = run(['chroot', root, 'pdbedit', '-L', '-w'])
    .split('\n')
    .find((l) => l.startsWith(`${owner.username}:`));
  expect(passdb, 'the owner in the passdb').to.be.a('string');
  const [, smbUid, , nt, flags] = passdb!.split(':');
  expect({ uid: Number(smbUid), nt, flags: flags!.replace(/[[\] ]/g, '') }).to.deep.equal({ uid: owner.uid, nt: ntHash(password), flags: 'U' });
}
