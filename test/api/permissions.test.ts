import { expect } from 'chai';
import { adminPassword, expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { createUser, uniqueName, userPassword } from '../helpers/identity.ts';
import { coreApps } from '../../shared/src/apps.ts';

describe('permissions: catalog, grants and effective rights', () => {
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

  it('lists special rights, file protocols and one entry per app, in editor order', async () => {
    const { rights } = await admin.api.permissions.catalog();
    expect(rights.slice(0, 4).map((r) => r.id)).to.deep.equal(['system.admin', 'system.power', 'smb', 'sftp']);
    expect(rights.map((r) => r.kind)).to.deep.equal(
      [...rights.map((r) => r.kind)].sort((a, b) => ['special', 'protocol', 'app'].indexOf(a) - ['special', 'protocol', 'app'].indexOf(b)),
    );
    expect(rights.filter((r) => r.kind === 'app').map((r) => r.id)).to.deep.equal(coreApps.map((a) => `app:${a.id}`));
  });

  it('combines own and group grants (built-in group included) into the effective result', async () => {
    const u = await createUser(admin);
    const builtIn = (await admin.api.groups.list())[0]!;
    const g = await admin.api.groups.create({ body: { name: uniqueName('media'), memberIds: [u.id] } });
    await admin.api.permissions.setUserGrants({ params: { userId: u.id }, body: { rights: ['smb'] } });
    expect(await admin.api.permissions.setGroupGrants({ params: { groupId: g.id }, body: { rights: ['app:org.service.logs'] } })).to.deep.equal({
      groupId: g.id,
      rights: ['app:org.service.logs'],
    });
    await admin.api.permissions.setGroupGrants({ params: { groupId: builtIn.id }, body: { rights: ['sftp'] } });
    try {
      const grants = await admin.api.permissions.userGrants({ params: { userId: u.id } });
      expect(grants.own).to.deep.equal(['smb']);
      expect(grants.groups).to.deep.equal([
        { groupId: builtIn.id, name: 'users', rights: ['sftp'] },
        { groupId: g.id, name: g.name, rights: ['app:org.service.logs'] },
      ]);
      expect(grants.effective).to.deep.equal(['app:org.service.logs', 'sftp', 'smb']);
      expect(grants.admin).to.equal(false);
      expect((await admin.api.users.list()).find((x) => x.id === u.id)).to.include({ smb: true, sftp: false });
      expect(await admin.api.permissions.groupGrants({ params: { groupId: g.id } })).to.deep.equal({ groupId: g.id, rights: ['app:org.service.logs'] });
      // A deactivated user holds nothing.
      await admin.api.users.update({ params: { userId: u.id }, body: { active: false } });
      expect((await admin.api.permissions.userGrants({ params: { userId: u.id } })).effective).to.deep.equal([]);
    } finally {
      await admin.api.permissions.setGroupGrants({ params: { groupId: builtIn.id }, body: { rights: [] } });
    }
  });

  it('applies a grant change on the next request', async () => {
    const u = await createUser(admin);
    const c = await box.signIn(u.username, userPassword);
    await expectProblem(c.api.users.list(), 'auth.permission.denied', 403);
    await admin.api.permissions.setUserGrants({ params: { userId: u.id }, body: { rights: ['system.admin'] } });
    expect((await c.api.users.list()).length).to.be.greaterThan(1);
    expect((await admin.api.users.list()).find((x) => x.id === u.id)?.admin).to.equal(true);
    await admin.api.permissions.setUserGrants({ params: { userId: u.id }, body: { rights: [] } });
    await expectProblem(c.api.users.list(), 'auth.permission.denied', 403);
  });

  it('refuses unknown rights and a change that leaves no active administrator', async () => {
    const p = await expectProblem(
      admin.api.permissions.setUserGrants({ params: { userId: admin.user!.id }, body: { rights: ['system.admin', 'fly'] } }),
      'permissions.right.unknown',
      400,
    );
    expect(p.problem.params).to.deep.equal({ rights: ['fly'] });
    await expectProblem(admin.api.permissions.setUserGrants({ params: { userId: admin.user!.id }, body: { rights: [] } }), 'users.admin.last', 409);
    expect((await admin.api.permissions.userGrants({ params: { userId: admin.user!.id } })).own).to.deep.equal(['system.admin']);
    await expectProblem(admin.api.permissions.userGrants({ params: { userId: 987654 } }), 'users.user.not_found', 404);
    await expectProblem(admin.api.permissions.groupGrants({ params: { groupId: 987654 } }), 'groups.group.not_found', 404);
  });

  it('refuses the unauthenticated (401), non-administrators (403) and bad input (400) on every route', async () => {
    const anon = box.client();
    const id = plain.user!.id;
    await expectProblem(anon.api.permissions.catalog(), 'auth.session.required', 401);
    await expectProblem(anon.api.permissions.groupGrants({ params: { groupId: 1 } }), 'auth.session.required', 401);
    await expectProblem(anon.api.permissions.setGroupGrants({ params: { groupId: 1 }, body: { rights: [] } }), 'auth.session.required', 401);
    await expectProblem(anon.api.permissions.userGrants({ params: { userId: id } }), 'auth.session.required', 401);
    await expectProblem(anon.api.permissions.setUserGrants({ params: { userId: id }, body: { rights: [] } }), 'auth.session.required', 401);
    await expectProblem(plain.api.permissions.catalog(), 'auth.permission.denied', 403);
    await expectProblem(plain.api.permissions.groupGrants({ params: { groupId: 1 } }), 'auth.permission.denied', 403);
    await expectProblem(plain.api.permissions.setGroupGrants({ params: { groupId: 1 }, body: { rights: [] } }), 'auth.permission.denied', 403);
    await expectProblem(plain.api.permissions.userGrants({ params: { userId: id } }), 'auth.permission.denied', 403);
    await expectProblem(plain.api.permissions.setUserGrants({ params: { userId: id }, body: { rights: ['system.admin'] } }), 'auth.permission.denied', 403);
    await expectProblem(admin.api.permissions.setGroupGrants({ params: { groupId: 1 }, body: {} as never }), 'request.body.invalid', 400);
    await expectProblem(admin.api.permissions.setUserGrants({ params: { userId: id }, body: { rights: ['smb', 'smb'] } }), 'request.body.invalid', 400);
    await expectProblem(admin.api.permissions.userGrants({ params: { userId: 'x' as never } }), 'request.params.invalid', 400);
  });
});
