import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { runOperation } from '../helpers/file-operations.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';
import { insertUser } from '../helpers/users.ts';

/**
 * The files area with the second wall on: a share user's uploads, folders, renames, downloads
 * and copy jobs run in a worker with the user's own identity. The daemon runs as root in
 * development mode with `files.userIdentity` (a box turns it on by itself); the user gets a
 * real account (random `ctid` name, removed afterwards) with the Cellar user's uid, and the
 * share folder the ACL a box gives a read-write grant (host/file-services/acl.ts).
 */
describe('files in the user’s own identity (root, a real account)', function () {
  this.timeout(60_000);
  const username = `ctid${randomBytes(3).toString('hex')}`;
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8', timeout: 20_000 });
  let box: TestDaemon;
  let user: TestClient;
  let shareId: number;
  let folder: string;
  let uid: number;

  before(async () => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    expect(run('which', ['setfacl']).status, 'setfacl is installed (apt-get install acl)').to.equal(0);
    box = await startTestDaemon({}, { files: { userIdentity: true } });
    const admin = await box.signIn();
    const userId = await insertUser(box, username, 'user-password-1');
    uid = (
      (await box.daemon.db.query('SELECT uid FROM users WHERE id = ?', { replacements: [userId], type: QueryTypes.SELECT, plain: true })) as { uid: number }
    ).uid;
    expect(run('useradd', ['--uid', String(uid), '--gid', 'users', '--no-create-home', '--shell', '/usr/sbin/nologin', username]).status).to.equal(0);
    ({
      share: { id: shareId },
      folder,
    } = await makeShare(admin, 'wall'));
    await admin.api.shares.setGrants({ params: { shareId }, body: { grants: [{ subjectType: 'user', subjectId: userId, level: 'readWrite' }] } });
    run('chmod', ['0770', folder]);
    expect(run('setfacl', ['-m', `u:${username}:rwx`, '-d', '-m', `u:${username}:rwx`, folder]).status).to.equal(0);
    writeFileSync(path.join(folder, 'private.txt'), 'root only\n', { mode: 0o600 });
    mkdirSync(path.join(folder, 'locked'), { mode: 0o700 });
    user = await box.signIn(username, 'user-password-1');
  });

  after(async () => {
    await box?.close();
    removeTempFolders();
    run('userdel', [username]);
  });

  it('writes uploads, folders and renames as the user', async () => {
    await user.api.files.upload({ params: { shareId }, query: { path: 'mine.txt' }, body: Buffer.from('from the user\n') });
    expect(statSync(path.join(folder, 'mine.txt')).uid).to.equal(uid);
    await user.api.files.createFolder({ params: { shareId }, body: { path: 'made' } });
    expect(statSync(path.join(folder, 'made')).uid).to.equal(uid);
    await user.api.files.rename({ params: { shareId }, body: { path: 'mine.txt', newName: 'renamed.txt' } });
    expect(readFileSync(path.join(folder, 'renamed.txt'), 'utf8')).to.equal('from the user\n');
  });

  it('refuses what the disk refuses the user, though the share grant allows it', async () => {
    const res = await user.request('GET', `/api/files/${shareId}/content?path=private.txt`);
    expect(res.status).to.equal(403);
    expect(((await res.json()) as { code: string }).code).to.equal('fs.entry.forbidden');
    await expectProblem(user.api.files.upload({ params: { shareId }, query: { path: 'locked/in.txt' }, body: Buffer.from('x') }), 'fs.entry.forbidden', 403);
    await expectProblem(user.api.files.createFolder({ params: { shareId }, body: { path: 'locked/sub' } }), 'fs.entry.forbidden', 403);
    const ok = await user.request('GET', `/api/files/${shareId}/content?path=renamed.txt`);
    expect(await ok.text()).to.equal('from the user\n');
  });

  it('runs copy jobs as the user: the copy is the user’s, a file the user cannot read fails the job', async () => {
    const copied = await runOperation(user, { op: 'copy', sources: [{ shareId, path: 'renamed.txt' }], target: { shareId, path: 'made' } });
    expect(copied.state).to.equal('succeeded');
    expect(statSync(path.join(folder, 'made', 'renamed.txt')).uid).to.equal(uid);
    const refused = await runOperation(user, { op: 'copy', sources: [{ shareId, path: 'private.txt' }], target: { shareId, path: 'made' } });
    expect(refused.state).to.equal('failed');
    expect(refused.error?.code).to.equal('fs.entry.forbidden');
    expect(readFileSync(path.join(folder, 'private.txt'), 'utf8')).to.equal('root only\n');
  });
});
