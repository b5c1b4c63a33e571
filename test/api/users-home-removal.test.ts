import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { createUser } from '../helpers/identity.ts';
import { makeShare, removeTempFolders } from '../helpers/shares.ts';

// Over HTTP in development mode: a home row whose dataset is on no pool (zfs probes run for real and find
// nothing). Failures after the user went are covered in daemon/src/areas/identity/users/users-home-removal.test.ts.
describe('user deletion with a home: refusals before anything changes', () => {
  let box: TestDaemon;
  let admin: TestClient;
  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
  });
  after(async () => {
    await box.close();
    removeTempFolders();
  });

  async function userWithHome() {
    const user = await createUser(admin);
    const { share } = await makeShare(admin, `home-${user.username}`);
    const dataset = `cellarnopool${process.pid}/homes/${user.username}`;
    await box.daemon.db.query('INSERT INTO storage_homes (share_id, user_id, username, uid, folder, dataset, quota_bytes) VALUES (?, ?, ?, ?, ?, ?, NULL)', {
      replacements: [share.id, user.id, user.username, user.uid, user.username, dataset],
    });
    return { user, shareId: share.id, dataset };
  }

  it('refuses keep and move of a home whose dataset is gone, and a move target that is not writable; the user stays', async () => {
    const { user, dataset } = await userWithHome();
    const p = await expectProblem(admin.api.users.remove({ params: { userId: user.id }, query: { home: 'keep' } }), 'storage.dataset.not_found', 404);
    expect(p.problem.params).to.deep.equal({ dataset });
    const { share: target, folder } = await makeShare(admin, `target-${user.username}`);
    rmSync(folder, { recursive: true });
    const t = await expectProblem(
      admin.api.users.remove({ params: { userId: user.id }, query: { home: 'move', shareId: target.id } }),
      'users.home.target_unwritable',
      409,
    );
    expect(t.problem.params).to.deep.equal({ shareId: target.id });
    await expectProblem(admin.api.users.remove({ params: { userId: user.id }, query: { home: 'move', shareId: 99999 } }), 'fs.share.not_found', 404);
    await expectProblem(
      admin.api.users.remove({ params: { userId: user.id }, query: { home: 'delete', confirm: 'not-the-name' } }),
      'users.confirm.mismatch',
      400,
    );
    expect((await admin.api.users.list()).some((u) => u.id === user.id)).to.equal(true);
  });

  it('deletes a home whose dataset is gone: its share and row go with the user', async () => {
    const { user, shareId } = await userWithHome();
    expect(await admin.api.users.remove({ params: { userId: user.id }, query: { home: 'delete', confirm: user.username } })).to.deep.equal({
      userId: user.id,
      username: user.username,
      home: 'delete',
      keptHome: null,
      job: null,
    });
    expect((await admin.api.users.list()).some((u) => u.id === user.id)).to.equal(false);
    expect((await admin.api.shares.list()).some((s) => s.id === shareId)).to.equal(false);
    expect((await admin.api.homes.overview()).homes.some((h) => h.shareId === shareId)).to.equal(false);
  });
});
