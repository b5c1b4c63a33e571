import { expect } from 'chai';
import { adminPassword, expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { createUser, uniqueName, userPassword } from '../helpers/identity.ts';
import { connectSocket } from '../helpers/socket.ts';

describe('users: administration rules', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let plain: TestClient;
  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn('admin', adminPassword);
    const u = await createUser(admin);
    plain = await box.signIn(u.username, userPassword);
  });
  after(() => box.close());

  it('creates users with uids from 20000 upwards and lists them', async () => {
    const name = uniqueName('anna');
    const created = await admin.api.users.create({ body: { username: name, displayName: 'Anna A', password: userPassword, smb: true } });
    expect(created).to.include({ username: name, displayName: 'Anna A', admin: false, smb: true, sftp: false, active: true, totpEnabled: false, home: null });
    expect(created.uid).to.be.within(20000, 29999);
    const list = await admin.api.users.list();
    const me = list.find((u) => u.username === 'admin')!;
    expect(me.uid).to.equal(20000);
    expect(list.map((u) => u.uid)).to.include(created.uid);
    expect(new Set(list.map((u) => u.uid)).size).to.equal(list.length);
  });

  it('never gives a uid out again after a delete', async () => {
    const a = await createUser(admin);
    await admin.api.users.remove({ params: { userId: a.id }, query: {} });
    const b = await createUser(admin);
    expect(b.uid).to.be.greaterThan(a.uid);
    // The same name again gets a new uid too.
    await admin.api.users.remove({ params: { userId: b.id }, query: {} });
    const c = await createUser(admin, { username: b.username });
    expect(c.uid).to.be.greaterThan(b.uid);
  });

  it('refuses taken, reserved and badly formed names and weak passwords', async () => {
    const a = await createUser(admin);
    await expectProblem(admin.api.users.create({ body: { username: a.username, password: userPassword } }), 'users.username.taken', 409);
    await expectProblem(admin.api.users.create({ body: { username: 'root', password: userPassword } }), 'users.username.reserved', 409);
    await expectProblem(admin.api.users.create({ body: { username: 'cellar-smb', password: userPassword } }), 'users.username.reserved', 409);
    await expectProblem(admin.api.users.create({ body: { username: 'Bad Name', password: userPassword } }), 'request.body.invalid', 400);
    await expectProblem(admin.api.users.create({ body: { username: uniqueName(), password: '1234567890' } }), 'auth.password.weak', 400);
    await expectProblem(admin.api.users.create({ body: { username: 'bernhard', password: 'bernhard1' } }), 'auth.password.weak', 400);
    await expectProblem(admin.api.users.create({ body: { username: 'bernhard', password: 'bernhard12' } }), 'auth.password.weak', 400);
  });

  it('changes display name and SMB and SFTP rights', async () => {
    const a = await createUser(admin);
    const changed = await admin.api.users.update({ params: { userId: a.id }, body: { displayName: 'Renamed', smb: true, sftp: true } });
    expect(changed).to.include({ displayName: 'Renamed', smb: true, sftp: true });
    const grants = await admin.api.permissions.userGrants({ params: { userId: a.id } });
    expect(grants.own).to.deep.equal(['sftp', 'smb']);
  });

  it('deactivation ends every session of the user at once and closes its sockets', async () => {
    const a = await createUser(admin);
    const c = await box.signIn(a.username, userPassword);
    const socket = await connectSocket(box.url, c);
    try {
      const changed = await admin.api.users.update({ params: { userId: a.id }, body: { active: false } });
      expect(changed.active).to.equal(false);
      await expectProblem(c.api.auth.session(), 'auth.session.required', 401);
      expect(await socket.waitForDisconnect()).to.equal('io server disconnect');
      // A deactivated user's sign-in looks like a wrong password.
      await expectProblem(box.client().api.auth.login({ body: { username: a.username, password: userPassword } }), 'auth.credentials.invalid', 401);
      await admin.api.users.update({ params: { userId: a.id }, body: { active: true } });
      expect((await box.client().api.auth.login({ body: { username: a.username, password: userPassword } })).state).to.equal('signedIn');
    } finally {
      socket.close();
    }
  });

  it('password reset sets the new password and ends every session of the user', async () => {
    const a = await createUser(admin);
    const c = await box.signIn(a.username, userPassword);
    await expectProblem(admin.api.users.resetPassword({ params: { userId: a.id }, body: { password: 'short' } }), 'auth.password.weak', 400);
    await admin.api.users.resetPassword({ params: { userId: a.id }, body: { password: 'fresh-figs-2026' } });
    await expectProblem(c.api.auth.session(), 'auth.session.required', 401);
    expect((await box.client().api.auth.login({ body: { username: a.username, password: 'fresh-figs-2026' } })).state).to.equal('signedIn');
    await expectProblem(admin.api.users.resetPassword({ params: { userId: 999999 }, body: { password: 'fresh-figs-2026' } }), 'users.user.not_found', 404);
  });

  it('nobody deactivates or deletes themselves', async () => {
    await expectProblem(admin.api.users.update({ params: { userId: admin.user!.id }, body: { active: false } }), 'users.self.deactivate', 409);
    await expectProblem(admin.api.users.remove({ params: { userId: admin.user!.id }, query: {} }), 'users.self.delete', 409);
  });

  it('the last active administrator keeps the right and stays active', async () => {
    const other = await createUser(admin, { admin: true });
    const c = await box.signIn(other.username, userPassword);
    // Two administrators: admin may lose the right; then other is the last one.
    await c.api.users.update({ params: { userId: admin.user!.id }, body: { admin: false } });
    await expectProblem(admin.api.users.list(), 'auth.permission.denied', 403);
    await expectProblem(c.api.users.update({ params: { userId: other.id }, body: { admin: false } }), 'users.admin.last', 409);
    await expectProblem(c.api.permissions.setUserGrants({ params: { userId: other.id }, body: { rights: [] } }), 'users.admin.last', 409);
    await c.api.users.update({ params: { userId: admin.user!.id }, body: { admin: true } });
    // Now admin deactivates and deletes the other one, while one administrator stays.
    await admin.api.users.update({ params: { userId: other.id }, body: { active: false } });
    await admin.api.users.remove({ params: { userId: other.id }, query: {} });
    expect((await admin.api.users.list()).some((u) => u.id === other.id)).to.equal(false);
  });

  it('refuses group changes that would leave no active administrator', async () => {
    const other = await createUser(admin);
    const c = await box.signIn(other.username, userPassword);
    // other becomes an administrator through a group only; then admin gives up the own right.
    const group = await admin.api.groups.create({ body: { name: uniqueName('ops'), memberIds: [other.id] } });
    await admin.api.permissions.setGroupGrants({ params: { groupId: group.id }, body: { rights: ['system.admin'] } });
    expect((await c.api.auth.session()).admin).to.equal(true);
    await admin.api.users.update({ params: { userId: admin.user!.id }, body: { admin: false } });
    await expectProblem(c.api.groups.update({ params: { groupId: group.id }, body: { memberIds: [] } }), 'users.admin.last', 409);
    await expectProblem(c.api.groups.remove({ params: { groupId: group.id } }), 'users.admin.last', 409);
    await expectProblem(c.api.permissions.setGroupGrants({ params: { groupId: group.id }, body: { rights: [] } }), 'users.admin.last', 409);
    await expectProblem(c.api.users.update({ params: { userId: other.id }, body: { active: false } }), 'users.self.deactivate', 409);
    // Nothing changed by the refusals.
    expect((await c.api.groups.list()).find((g) => g.id === group.id)?.members.map((m) => m.id)).to.deep.equal([other.id]);
    await c.api.users.update({ params: { userId: admin.user!.id }, body: { admin: true } });
    await admin.api.groups.remove({ params: { groupId: group.id } });
    await expectProblem(c.api.groups.list(), 'auth.permission.denied', 403);
  });

  it('deletes with home=keep; delete needs confirm; delete and move wait for homes', async () => {
    const a = await createUser(admin);
    await expectProblem(
      admin.api.users.remove({ params: { userId: a.id }, query: { home: 'delete', confirm: 'someone-else' } }),
      'users.confirm.mismatch',
      400,
    );
    const p = await expectProblem(
      admin.api.users.remove({ params: { userId: a.id }, query: { home: 'delete', confirm: a.username } }),
      'users.home.unavailable',
      409,
    );
    expect(p.problem.params).to.deep.equal({ home: 'delete' });
    await expectProblem(admin.api.users.remove({ params: { userId: a.id }, query: { home: 'move', shareId: 1 } }), 'users.home.unavailable', 409);
    await expectProblem(admin.api.users.remove({ params: { userId: a.id }, query: { home: 'move' } }), 'request.query.invalid', 400);
    const c = await box.signIn(a.username, userPassword);
    const deletion = await admin.api.users.remove({ params: { userId: a.id }, query: { home: 'keep' } });
    expect(deletion).to.deep.equal({ userId: a.id, username: a.username, home: 'keep', keptHome: null, job: null });
    await expectProblem(c.api.auth.session(), 'auth.session.required', 401);
    await expectProblem(admin.api.users.remove({ params: { userId: a.id }, query: {} }), 'users.user.not_found', 404);
  });

  it('refuses the unauthenticated (401), non-administrators (403) and bad input (400) on every route', async () => {
    const anon = box.client();
    const target = plain.user!.id;
    await expectProblem(anon.api.users.list(), 'auth.session.required', 401);
    await expectProblem(anon.api.users.create({ body: { username: 'x', password: userPassword } }), 'auth.session.required', 401);
    await expectProblem(anon.api.users.update({ params: { userId: target }, body: {} }), 'auth.session.required', 401);
    await expectProblem(anon.api.users.remove({ params: { userId: target }, query: {} }), 'auth.session.required', 401);
    await expectProblem(anon.api.users.resetPassword({ params: { userId: target }, body: { password: userPassword } }), 'auth.session.required', 401);
    await expectProblem(plain.api.users.list(), 'auth.permission.denied', 403);
    await expectProblem(plain.api.users.create({ body: { username: 'x', password: userPassword } }), 'auth.permission.denied', 403);
    await expectProblem(plain.api.users.update({ params: { userId: target }, body: {} }), 'auth.permission.denied', 403);
    await expectProblem(plain.api.users.remove({ params: { userId: target }, query: {} }), 'auth.permission.denied', 403);
    await expectProblem(plain.api.users.resetPassword({ params: { userId: target }, body: { password: userPassword } }), 'auth.permission.denied', 403);
    await expectProblem(admin.api.users.create({ body: { username: 'ok', password: userPassword, admin: 'yes' } as never }), 'request.body.invalid', 400);
    await expectProblem(admin.api.users.update({ params: { userId: target }, body: { active: 'no' } as never }), 'request.body.invalid', 400);
    await expectProblem(admin.api.users.update({ params: { userId: 0 }, body: {} }), 'request.params.invalid', 400);
    await expectProblem(admin.api.users.remove({ params: { userId: target }, query: { home: 'burn' } as never }), 'request.query.invalid', 400);
    await expectProblem(admin.api.users.resetPassword({ params: { userId: target }, body: {} as never }), 'request.body.invalid', 400);
  });
});
