import { expect } from 'chai';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileShare } from '../../daemon/src/host/file-services/file-share.ts';
import { accounts, asUser, FileServicesBox, sftp as sftpAs, sh, smb } from './file-services-fixture.ts';
import { ensureZfsFuse, LoopDisks, sh as zfs } from './zfs-fixture.ts';

// A share on a real zfs-fuse pool (loop device, as root), which has no POSIX ACLs: setfacl
// answers "Operation not supported". The other file-service tests keep their shares under
// /srv, whose file system has ACLs, and the e2e test of shares on pools gave the writer the
// dataset by chown, so none of them met the refused ACLs the installed box met (issue 28).
const box = new FileServicesBox();
const { reader, writer, writer2, stranger } = accounts;
const disks = new LoopDisks(`cfszfs${process.pid}`);
const pool = `${disks.prefix}a`;
const sftp = (user: string, commands: string[]) => sftpAs(box.root, user, commands);

describe('file services on a zfs-fuse pool without POSIX ACLs (root)', function () {
  this.timeout(90_000);
  let folder: string;
  const group = `${box.shareGroupPrefix}7`;

  function family(users: FileShare['users']): FileShare {
    return { id: 7, name: 'family', hostPath: folder, smb: true, smbEncrypt: false, sftp: true, users };
  }

  before(async () => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    await ensureZfsFuse();
    await box.setUp();
    disks.add(1);
    disks.pools.add(pool);
    zfs(['zpool', 'create', '-f', '-m', path.join(box.root, 'tank'), pool, disks.loops[0]!]);
    zfs(['zfs', 'create', `${pool}/family`]);
    folder = path.join(box.root, 'tank', 'family');
    await writeFile(path.join(folder, 'hello.txt'), 'hello\n');
    box.state = {
      shares: [
        family([
          { username: reader, access: 'read' },
          { username: writer, access: 'readWrite' },
          { username: writer2, access: 'readWrite' },
        ]),
      ],
      smbUsers: [reader, writer, writer2, stranger],
      sftpUsers: [reader, writer, writer2, stranger],
    };
    await box.services.apply();
  });

  after(async () => {
    await box.tearDown();
    await disks.cleanup();
  });

  it('is a file system that refuses ACLs', async () => {
    const set = await sh(['setfacl', '-m', `u:${stranger}:r`, path.join(folder, 'hello.txt')]);
    expect(set.stderr).to.include('Operation not supported');
  });

  it('SMB: a read-write user writes into the share', async () => {
    const put = await smb('family', writer, `put ${box.smbConf} by-smb.conf`);
    expect(put.code, put.stdout + put.stderr).to.equal(0);
    expect(await readFile(path.join(folder, 'by-smb.conf'), 'utf8')).to.equal(await readFile(box.smbConf, 'utf8'));
  });

  it('SFTP: a read-write user writes into the share, and another one may change what they wrote', async () => {
    const put = await sftp(writer, [`put ${box.smbConf} /family/by-sftp.conf`, 'mkdir /family/made', `put ${box.smbConf} /family/made/inner.conf`]);
    expect(put.code, put.stdout + put.stderr).to.equal(0);
    await box.services.settled();
    const over = await sftp(writer2, [`put ${box.smbConf} /family/by-sftp.conf`, `put ${box.smbConf} /family/made/inner.conf`]);
    expect(over.code, over.stdout + over.stderr).to.equal(0);
  });

  it('a read-only grant stays read-only over SMB and SFTP, while reading works', async () => {
    const smbPut = await smb('family', reader, `put ${box.smbConf} from-reader.txt`);
    expect(smbPut.stdout + smbPut.stderr).to.match(/NT_STATUS_ACCESS_DENIED|NT_STATUS_MEDIA_WRITE_PROTECTED/);
    const smbGet = await smb('family', reader, `get hello.txt ${path.join(box.root, 'got-smb.txt')}`);
    expect(smbGet.code, smbGet.stdout + smbGet.stderr).to.equal(0);
    const sftpPut = await sftp(reader, [`put ${box.smbConf} /family/from-reader.txt`]);
    expect(sftpPut.code).to.not.equal(0);
    for (const what of [['rm /family/by-smb.conf'], ['mkdir /family/by-reader'], ['rename /family/hello.txt /family/moved.txt']]) {
      expect((await sftp(reader, what)).code, what[0]).to.not.equal(0);
    }
    const sftpGet = await sftp(reader, [`get /family/by-smb.conf ${path.join(box.root, 'got-sftp.txt')}`]);
    expect(sftpGet.code, sftpGet.stdout + sftpGet.stderr).to.equal(0);
    expect(await readFile(path.join(folder, 'hello.txt'), 'utf8')).to.equal('hello\n');
  });

  it('gives the share folder to a system group of the granted users, nobody else', async () => {
    const s = await stat(folder);
    expect(s.uid).to.equal(0);
    expect(s.mode & 0o7777).to.equal(0o2770);
    const members = (await sh(['getent', 'group', group])).stdout.trim().split(':');
    expect(members[2]).to.equal(String(s.gid));
    expect(members[3]!.split(',').sort()).to.deep.equal([reader, writer, writer2].sort());
    // What the users made carries the group, folders set-group-ID, and nothing for others.
    for (const [entry, mode] of [
      ['by-smb.conf', 0o660],
      ['by-sftp.conf', 0o660],
      ['made', 0o2770],
      ['made/inner.conf', 0o660],
    ] as const) {
      const e = await stat(path.join(folder, entry));
      expect({ entry, gid: e.gid, mode: e.mode & 0o7777 }).to.deep.equal({ entry, gid: s.gid, mode });
    }
    expect((await asUser(stranger, ['ls', folder])).code).to.not.equal(0);
    expect((await smb('family', stranger, 'ls')).code).to.not.equal(0);
  });

  it('keeps the group in step when a grant is taken back, and removes it with the share', async () => {
    box.state.shares = [
      family([
        { username: reader, access: 'read' },
        { username: writer, access: 'readWrite' },
      ]),
    ];
    await box.services.apply();
    expect((await sh(['getent', 'group', group])).stdout.trim().split(':')[3]!.split(',').sort()).to.deep.equal([reader, writer].sort());
    expect((await asUser(writer2, ['ls', folder])).code).to.not.equal(0);
    expect((await smb('family', writer2, 'ls')).code).to.not.equal(0);
    box.state.shares = [];
    await box.services.apply();
    expect((await sh(['getent', 'group', group])).code).to.not.equal(0);
  });
});
