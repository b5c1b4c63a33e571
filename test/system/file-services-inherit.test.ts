import { expect } from 'chai';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { accounts, asUser, FileServicesBox, sftp as sftpAs, sh, smb } from './file-services-fixture.ts';

// Issue #4: what one writer creates over SFTP or SMB must stay writable for every other
// read-write grant and readable (only) for read grants, whatever mode the client asked for.
// Real smbd, sshd, system accounts and POSIX ACLs (root; Debian packages samba smbclient
// openssh-server openssh-client sshpass acl).
const box = new FileServicesBox();
const { reader, writer, writer2 } = accounts;
const sftp = (user: string, commands: string[]) => sftpAs(box.root, user, commands);
const docs = () => box.shares.docs;

/** Effective permissions (`rwx` letters) of each named user entry, the mask applied. */
async function effective(file: string): Promise<{ mask: string; users: Map<string, string> }> {
  const out = (await sh(['getfacl', '-p', '-c', file])).stdout;
  const mask = /^mask::(\S+)$/m.exec(out)?.[1] ?? 'rwx';
  const users = new Map<string, string>();
  for (const m of out.matchAll(/^user:([^:\s]+):(\S+)/gm)) {
    users.set(m[1]!, [...m[2]!].map((c, i) => (mask[i] === c ? c : '-')).join(''));
  }
  return { mask, users };
}

/** The ACL keeper follows SFTP writes within moments: wait until the entry's mask is `want`. */
async function settled(file: string, want: string): Promise<void> {
  const until = Date.now() + 5000;
  let last = '';
  while (Date.now() < until) {
    last = (await effective(file)).mask;
    if (last === want) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect.fail(`${file}: mask ${last}, expected ${want}`);
}

/** The grants hold on the entry: writers may write, the reader only read. */
async function expectGrantsEffective(file: string, folder: boolean): Promise<void> {
  const { mask, users } = await effective(file);
  expect(mask, file).to.equal(folder ? 'rwx' : 'rw-');
  expect(users.get(writer), file).to.equal(folder ? 'rwx' : 'rw-');
  expect(users.get(writer2), file).to.equal(folder ? 'rwx' : 'rw-');
  expect(users.get(reader), file).to.equal(folder ? 'r-x' : 'r--');
  const other = /^other::(\S+)$/m.exec((await sh(['getfacl', '-p', '-c', file])).stdout)?.[1];
  expect(other, file).to.equal('---');
}

describe('new files and folders keep the grants over SFTP and SMB (root)', function () {
  this.timeout(60_000);
  let local: string;
  let other: string;

  before(async () => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    await box.setUp();
    const users = [
      { username: reader, access: 'read' as const },
      { username: writer, access: 'readWrite' as const },
      { username: writer2, access: 'readWrite' as const },
    ];
    box.state = {
      shares: [{ id: 1, name: 'docs', hostPath: docs(), smb: true, smbEncrypt: false, sftp: true, users }],
      smbUsers: [reader, writer, writer2],
      sftpUsers: [reader, writer, writer2],
    };
    await box.services.apply();
    // What a client uploads: a file of mode 0644, whose mode SFTP's open carries over.
    local = path.join(box.root, 'local-0644.txt');
    await writeFile(local, 'first\n');
    await chmod(local, 0o644);
    other = path.join(box.root, 'local-other.txt');
    await writeFile(other, 'second writer\n');
    await chmod(other, 0o600);
  });

  after(() => box.tearDown());

  it('SFTP: a file put with mode 0644 and a folder made get the full mask', async () => {
    const run = await sftp(writer, [`put ${local} /docs/sftp-file.txt`, 'mkdir /docs/sftp-folder']);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    await settled(path.join(docs(), 'sftp-file.txt'), 'rw-');
    await settled(path.join(docs(), 'sftp-folder'), 'rwx');
    await expectGrantsEffective(path.join(docs(), 'sftp-file.txt'), false);
    await expectGrantsEffective(path.join(docs(), 'sftp-folder'), true);
  });

  it('SFTP: a client chmod that narrows the mask is put back', async () => {
    const run = await sftp(writer, ['chmod 600 /docs/sftp-file.txt']);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    await settled(path.join(docs(), 'sftp-file.txt'), 'rw-');
    await expectGrantsEffective(path.join(docs(), 'sftp-file.txt'), false);
  });

  it('SMB: a file put and a folder made carry the grants', async () => {
    const run = await smb('docs', writer, `put ${local} smb-file.txt; mkdir smb-folder`);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    await expectGrantsEffective(path.join(docs(), 'smb-file.txt'), false);
    await expectGrantsEffective(path.join(docs(), 'smb-folder'), true);
  });

  for (const [made, file, folder] of [
    ['SFTP', 'sftp-file.txt', 'sftp-folder'],
    ['SMB', 'smb-file.txt', 'smb-folder'],
  ] as const) {
    it(`another writer overwrites, appends to and adds inside what ${made} made, over SFTP, SMB and the disk`, async () => {
      const overSftp = await sftp(writer2, [`put ${other} /docs/${file}`, `put ${other} /docs/${folder}/by-sftp.txt`]);
      expect(overSftp.code, overSftp.stdout + overSftp.stderr).to.equal(0);
      expect(await readFile(path.join(docs(), file), 'utf8')).to.equal('second writer\n');
      const overSmb = await smb('docs', writer2, `put ${local} ${file}; put ${local} ${folder}\\by-smb.txt`);
      expect(overSmb.code, overSmb.stdout + overSmb.stderr).to.equal(0);
      expect(overSmb.stdout + overSmb.stderr).to.not.match(/NT_STATUS_/);
      expect(await readFile(path.join(docs(), file), 'utf8')).to.equal('first\n');
      const append = await asUser(writer2, ['sh', '-c', 'printf "appended\\n" >> "$1"', 'sh', path.join(docs(), file)]);
      expect(append.code, append.stderr).to.equal(0);
      expect(await readFile(path.join(docs(), file), 'utf8')).to.equal('first\nappended\n');
      await settled(path.join(docs(), folder, 'by-sftp.txt'), 'rw-');
      for (const inside of ['by-sftp.txt', 'by-smb.txt']) await expectGrantsEffective(path.join(docs(), folder, inside), false);
    });

    it(`the reader reads but cannot write what ${made} made`, async () => {
      const got = await sftp(reader, [`get /docs/${file} ${path.join(box.root, `got-${file}`)}`]);
      expect(got.code, got.stdout + got.stderr).to.equal(0);
      const gotSmb = await smb('docs', reader, `get ${folder}\\by-smb.txt ${path.join(box.root, `got-smb-${file}`)}`);
      expect(gotSmb.code, gotSmb.stdout + gotSmb.stderr).to.equal(0);
      const putSftp = await sftp(reader, [`put ${local} /docs/${file}`]);
      expect(putSftp.code).to.not.equal(0);
      const mkSftp = await sftp(reader, [`put ${local} /docs/${folder}/by-reader.txt`]);
      expect(mkSftp.code).to.not.equal(0);
      const putSmb = await smb('docs', reader, `put ${local} ${file}`);
      expect(putSmb.stdout + putSmb.stderr).to.match(/NT_STATUS_ACCESS_DENIED|NT_STATUS_MEDIA_WRITE_PROTECTED/);
      expect((await asUser(reader, ['sh', '-c', 'printf x >> "$1"', 'sh', path.join(docs(), file)])).code).to.not.equal(0);
      expect((await asUser(reader, ['touch', path.join(docs(), folder, 'by-reader-disk')])).code).to.not.equal(0);
    });
  }

  it("an entry moved in from another share (a rename, which keeps the ACL) gets this share's grants", async () => {
    const vault = box.shares.vault;
    box.state.shares.push({
      id: 2,
      name: 'vault',
      hostPath: vault,
      smb: false,
      smbEncrypt: false,
      sftp: false,
      users: [{ username: reader, access: 'readWrite' }],
    });
    await box.services.apply();
    await mkdir(path.join(vault, 'moved', 'inner'), { recursive: true });
    await writeFile(path.join(vault, 'moved', 'inner', 'f.txt'), 'from the vault\n');
    await rename(path.join(vault, 'moved'), path.join(docs(), 'moved'));
    expect((await effective(path.join(docs(), 'moved', 'inner', 'f.txt'))).users.get(reader), "the vault's grant came along").to.equal('rw-');
    await box.services.entriesArrived(1, [path.join(docs(), 'moved'), '/etc/passwd', docs()]);
    await expectGrantsEffective(path.join(docs(), 'moved'), true);
    await expectGrantsEffective(path.join(docs(), 'moved', 'inner'), true);
    await expectGrantsEffective(path.join(docs(), 'moved', 'inner', 'f.txt'), false);
    expect((await sh(['getfacl', '-p', '-c', '/etc/passwd'])).stdout, 'nothing outside the share').to.not.match(/^user:cfst-/m);
  });
});
