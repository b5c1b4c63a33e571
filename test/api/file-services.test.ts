import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { TestClient, TestDaemon } from '../helpers/daemon.ts';
import { startTestDaemon } from '../helpers/daemon.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';

interface Entry {
  message: string;
  file?: string;
  content?: string;
  path?: string;
  access?: string;
}

/** In development mode the file services write what they would do to the log: these tests read it. */
describe('file services in development mode', () => {
  let box: TestDaemon;
  let admin: TestClient;
  const entries: Entry[] = [];

  before(async () => {
    box = await startTestDaemon();
    box.daemon.logger.on('data', (info: Entry) => entries.push(info));
    admin = await box.signIn();
  });
  after(async () => {
    await box.close();
    removeTempFolders();
  });

  /** The first smb.conf logged after `since` entries that passes `test`. */
  async function smbConfWhere(since: number, test: (text: string) => boolean): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const found = entries.slice(since).find((e) => e.message === 'would write' && e.file === '/etc/samba/smb.conf' && test(e.content ?? ''));
      if (found) return found.content!;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('no such smb.conf was logged');
  }

  it('logs smb.conf, sshd fragment and ACLs after share, grant and user changes, writing nothing', async () => {
    const user = await admin.api.users.create({ body: { username: 'fsalice', password: 'Quite-long-password-7', smb: true, sftp: true } });
    const { share, folder } = await makeShare(admin, 'Media');
    let since = entries.length;
    await admin.api.shares.setGrants({ params: { shareId: share.id }, body: { grants: [{ subjectType: 'user', subjectId: user.id, level: 'read' }] } });
    await admin.api.shares.update({ params: { shareId: share.id }, body: { smbEnabled: true, smbEncrypt: true, sftpEnabled: true } });
    const conf = await smbConfWhere(since, (text) => text.includes('smb encrypt'));
    // The administrator reads and writes every share but holds no SMB right, so is not listed.
    expect(conf)
      .to.include('[Media]')
      .and.include(`\tpath = ${folder}\n`)
      .and.include('\tvalid users = fsalice\n')
      .and.include('\tread list = fsalice\n')
      .and.include('\tsmb encrypt = required\n');
    const acls = entries.slice(since).filter((e) => e.message === 'would set ACLs');
    expect(acls.some((e) => e.path === folder && e.access?.includes('u:fsalice:rX'))).to.equal(true);
    expect(entries.slice(since).some((e) => e.message === 'would set up SFTP chroots')).to.equal(true);
    // Nothing was written or run on this machine.
    expect(execFileSync('getfacl', ['-p', folder], { encoding: 'utf8' })).to.not.include('fsalice');
    if (existsSync('/etc/samba/smb.conf')) expect(readFileSync('/etc/samba/smb.conf', 'utf8')).to.not.include('[Media]');

    // Deactivation takes the user out at once, though their grant stays: nobody is left, so no section.
    since = entries.length;
    await admin.api.users.update({ params: { userId: user.id }, body: { active: false } });
    const after = await smbConfWhere(since, () => true);
    expect(after).to.not.include('fsalice').and.not.include('[Media]');
  });
});
