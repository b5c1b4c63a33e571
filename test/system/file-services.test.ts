import { expect } from 'chai';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { binRoot, ensureBin } from '../../daemon/src/areas/files/trash/trash-bin.ts';
import type { FileShare } from '../../daemon/src/host/file-services/file-share.ts';
import { accounts, asUser, FileServicesBox, password, sftp as sftpAs, sh, smb, smbPort } from './file-services-fixture.ts';

// Real smbd, sshd, system accounts and POSIX ACLs: needs root and the Debian packages
// samba smbclient openssh-server openssh-client sshpass acl.
const box = new FileServicesBox();
const { reader, writer, stranger, gone } = accounts;

const sftp = (user: string, commands: string[]) => sftpAs(box.root, user, commands);

function share(name: 'docs' | 'vault', fields: Partial<FileShare>): FileShare {
  return { id: name === 'docs' ? 1 : 2, name, hostPath: box.shares[name], smb: true, smbEncrypt: false, sftp: true, users: [], ...fields };
}

describe('file services on real smbd and sshd (root)', function () {
  this.timeout(60_000);

  before(async () => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    await box.setUp();
    await writeFile(path.join(box.shares.docs, 'hello.txt'), 'hello\n');
    await writeFile(path.join(box.shares.vault, 'secret.txt'), 'secret\n');
    // The deactivated user keeps their grant in the database; effective access gives them nothing.
    await box.accounts.setActive(gone, false);
    const users = [
      { username: reader, access: 'read' as const },
      { username: writer, access: 'readWrite' as const },
    ];
    box.state = {
      shares: [share('docs', { users }), share('vault', { smbEncrypt: true, sftp: false, users: [{ username: writer, access: 'readWrite' }] })],
      smbUsers: [reader, writer, stranger],
      sftpUsers: [reader, writer, stranger],
    };
    await box.services.apply();
  });

  after(() => box.tearDown());

  it('writes and validates a smb.conf that vetoes the recycle bin and asks for encryption', async () => {
    const conf = await readFile(box.smbConf, 'utf8');
    expect(conf).to.include('[docs]').and.include('valid users = cfst-reader cfst-writer').and.include('veto files = /.cellar-trash/.cellar-upload-*/');
    expect(conf.slice(conf.indexOf('[vault]'))).to.include('smb encrypt = required');
    expect((await sh(['testparm', '-s', box.smbConf])).code).to.equal(0);
  });

  it('SMB: a read user reads but cannot write', async () => {
    const got = await smb('docs', reader, `get hello.txt ${path.join(box.root, 'got-reader.txt')}`);
    expect(got.code, got.stdout + got.stderr).to.equal(0);
    expect(await readFile(path.join(box.root, 'got-reader.txt'), 'utf8')).to.equal('hello\n');
    const put = await smb('docs', reader, `put ${box.smbConf} from-reader.txt`);
    expect(put.stdout + put.stderr).to.match(/NT_STATUS_ACCESS_DENIED|NT_STATUS_MEDIA_WRITE_PROTECTED/);
  });

  it('SMB: a read-write user writes, and the new file carries the share ACL', async () => {
    const put = await smb('docs', writer, `put ${box.smbConf} from-writer.conf`);
    expect(put.code, put.stdout + put.stderr).to.equal(0);
    const acl = (await sh(['getfacl', '-p', path.join(box.shares.docs, 'from-writer.conf')])).stdout;
    expect(acl).to.include(`user:${reader}:r-x\t#effective:r--`).and.include(`user:${writer}:rwx\t#effective:rw-`).and.include('other::---');
    expect((await asUser(reader, ['cat', path.join(box.shares.docs, 'from-writer.conf')])).code).to.equal(0);
  });

  it('SMB: a user without a grant and a deactivated user are refused', async () => {
    const none = await smb('docs', stranger, 'ls');
    expect(none.code).to.not.equal(0);
    expect(none.stdout + none.stderr).to.match(/NT_STATUS_ACCESS_DENIED|NT_STATUS_BAD_NETWORK_NAME/);
    const deactivated = await smb('docs', gone, 'ls');
    expect(deactivated.code).to.not.equal(0);
    expect(deactivated.stdout + deactivated.stderr).to.match(/NT_STATUS_ACCOUNT_DISABLED|NT_STATUS_LOGON_FAILURE|NT_STATUS_ACCESS_DENIED/);
  });

  it('SMB: encryption required refuses a client that cannot encrypt and serves an encrypted one', async () => {
    // SMB 2.1 has no encryption; smbclient's SMB3 encrypts whenever the share demands it.
    const smb21 = (share: string) =>
      sh(['smbclient', `//127.0.0.1/${share}`, '-p', String(smbPort), '-U', `${writer}%${password}`, '-m', 'SMB2_10', '-c', 'ls']);
    const plain = await smb21('vault');
    expect(plain.code).to.not.equal(0);
    expect(plain.stdout + plain.stderr).to.match(/NT_STATUS_ACCESS_DENIED/);
    expect((await smb21('docs')).code, 'a share without the requirement still serves SMB 2.1').to.equal(0);
    const encrypted = await smb('vault', writer, 'ls', 'encrypt');
    expect(encrypted.code, encrypted.stdout + encrypted.stderr).to.equal(0);
    expect(encrypted.stdout).to.include('secret.txt');
  });

  it('SFTP: a deleted entry goes to a bin beside the share, which no SFTP listing shows', async () => {
    // The way the daemon deletes: the bin made ready beside the share, the entry renamed into it.
    await writeFile(path.join(box.shares.docs, 'unwanted.txt'), 'unwanted\n');
    const bin = await ensureBin(box.shares.docs);
    expect(bin).to.equal(binRoot(box.shares.docs));
    await rename(path.join(box.shares.docs, 'unwanted.txt'), path.join(bin, 'stored-unwanted'));
    // A pass of the file services (ACLs, smb.conf, chroots) makes no bin inside the share either.
    box.state.shares[0]!.users.push({ username: stranger, access: 'read' });
    await box.services.apply();
    box.state.shares[0]!.users.pop();
    await box.services.apply();
    for (const user of [writer, reader]) {
      const ls = await sftp(user, ['ls -a /docs', 'ls -a /']);
      expect(ls.code, ls.stdout + ls.stderr).to.equal(0);
      expect(ls.stdout).to.include('hello.txt').and.not.include('.cellar-trash').and.not.include('unwanted');
    }
    const get = await sftp(writer, [`get /docs/.cellar-trash/stored-unwanted ${path.join(box.root, 'sftp-trash-got.txt')}`]);
    expect(get.code).to.not.equal(0);
  });

  it('SMB: an old recycle bin inside a share is neither listed nor reachable', async () => {
    // Bins used to live inside the share; the veto stays for them.
    await mkdir(path.join(box.shares.docs, '.cellar-trash'), { mode: 0o700 });
    await writeFile(path.join(box.shares.docs, '.cellar-trash', 'deleted.txt'), 'gone\n');
    const list = await smb('docs', writer, 'ls');
    expect(list.code).to.equal(0);
    expect(list.stdout).to.include('hello.txt').and.not.include('.cellar-trash');
    const get = await smb('docs', writer, `get .cellar-trash/deleted.txt ${path.join(box.root, 'trash-got.txt')}`);
    expect(get.stdout + get.stderr).to.match(/NT_STATUS_OBJECT_(NAME|PATH)_NOT_FOUND|NT_STATUS_ACCESS_DENIED/);
  });

  it('SFTP: a read user reads but cannot write, inside a chroot of their shares', async () => {
    const ls = await sftp(reader, ['ls /']);
    expect(ls.code, ls.stdout + ls.stderr).to.equal(0);
    expect(ls.stdout).to.include('/docs').and.not.include('vault');
    const get = await sftp(reader, [`get /docs/hello.txt ${path.join(box.root, 'sftp-reader.txt')}`]);
    expect(get.code, get.stderr).to.equal(0);
    expect(await readFile(path.join(box.root, 'sftp-reader.txt'), 'utf8')).to.equal('hello\n');
    const put = await sftp(reader, [`put ${box.smbConf} /docs/sftp-reader.conf`]);
    expect(put.code).to.not.equal(0);
    expect(put.stderr).to.match(/Permission denied/);
  });

  it('SFTP: a read-write user writes', async () => {
    const put = await sftp(writer, [`put ${box.smbConf} /docs/sftp-writer.conf`]);
    expect(put.code, put.stdout + put.stderr).to.equal(0);
    const acl = (await sh(['getfacl', '-p', path.join(box.shares.docs, 'sftp-writer.conf')])).stdout;
    expect(acl).to.include(`# owner: ${writer}`).and.include(`user:${reader}:r-x`);
  });

  it('SFTP: a user without a grant, and a deactivated user are refused', async () => {
    for (const user of [stranger, gone]) {
      const run = await sftp(user, ['ls /']);
      expect(run.code, user).to.not.equal(0);
      expect(run.stdout).to.not.include('docs');
    }
  });

  it('disk: the ACLs give a direct access as the user the same rights', async () => {
    const file = path.join(box.shares.docs, 'hello.txt');
    expect((await asUser(reader, ['cat', file])).code).to.equal(0);
    expect((await asUser(reader, ['touch', path.join(box.shares.docs, 'disk-reader')])).code).to.not.equal(0);
    expect((await asUser(writer, ['touch', path.join(box.shares.docs, 'disk-writer')])).code).to.equal(0);
    expect((await asUser(stranger, ['cat', file])).code).to.not.equal(0);
    expect((await asUser(reader, ['ls', path.join(box.shares.docs, '.cellar-trash')])).code).to.not.equal(0);
    expect((await asUser(writer, ['ls', binRoot(box.shares.docs)])).code).to.not.equal(0);
    expect((await asUser(writer, ['cat', path.join(binRoot(box.shares.docs), 'stored-unwanted')])).code).to.not.equal(0);
  });

  it('a grant change is applied live: smbd reloads, the chroot and ACLs follow', async () => {
    box.state.shares[0]!.users.push({ username: stranger, access: 'read' });
    // A burst of changes is applied once.
    await Promise.all([box.services.apply(), box.services.apply(), box.services.apply()]);
    const got = await smb('docs', stranger, 'ls');
    expect(got.code, got.stdout + got.stderr).to.equal(0);
    expect((await sftp(stranger, ['ls /docs'])).stdout).to.include('hello.txt');
    box.state.shares[0]!.users = box.state.shares[0]!.users.filter((u) => u.username !== reader);
    await box.services.apply();
    expect((await smb('docs', reader, 'ls')).code).to.not.equal(0);
    expect((await sftp(reader, ['ls /'])).code).to.not.equal(0);
    expect((await asUser(reader, ['cat', path.join(box.shares.docs, 'hello.txt')])).code).to.not.equal(0);
  });
});
