import { expect } from 'chai';
import { adminPassword, expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { createUser, uniqueName, userPassword } from '../helpers/identity.ts';

describe('groups: administration rules', () => {
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

  it('lists the built-in group users first, with every user as member', async () => {
    await admin.api.groups.create({ body: { name: 'aardvarks' } });
    const list = await admin.api.groups.list();
    expect(list[0]).to.include({ name: 'users', builtIn: true, gid: 100, description: 'Every user of the box', descriptionCode: 'users' });
    const users = await admin.api.users.list();
    expect(list[0]!.members.map((m) => m.id).sort()).to.deep.equal(users.map((u) => u.id).sort());
    expect(list[1]!.name).to.equal('aardvarks');
  });

  it('creates groups with gids from 30000 and members, and never gives a gid out again', async () => {
    const u = await createUser(admin);
    const g = await admin.api.groups.create({ body: { name: uniqueName('team'), description: 'A team', memberIds: [u.id] } });
    expect(g.gid).to.be.within(30000, 39999);
    expect(g).to.include({ description: 'A team', descriptionCode: null, builtIn: false });
    expect(g.members).to.deep.equal([{ id: u.id, username: u.username }]);
    expect((await admin.api.users.list()).find((x) => x.id === u.id)?.groupIds).to.deep.equal([g.id]);
    await admin.api.groups.remove({ params: { groupId: g.id } });
    const again = await admin.api.groups.create({ body: { name: g.name } });
    expect(again.gid).to.be.greaterThan(g.gid);
  });

  it('renames, describes and replaces members; the gid stays', async () => {
    const [a, b] = [await createUser(admin), await createUser(admin)];
    const g = await admin.api.groups.create({ body: { name: uniqueName('crew'), memberIds: [a.id] } });
    const name = uniqueName('renamed');
    const changed = await admin.api.groups.update({ params: { groupId: g.id }, body: { name, description: 'New', memberIds: [b.id] } });
    expect(changed).to.include({ name, description: 'New', gid: g.gid });
    expect(changed.members.map((m) => m.id)).to.deep.equal([b.id]);
  });

  it('refuses changing or deleting the built-in group', async () => {
    const builtIn = (await admin.api.groups.list())[0]!;
    await expectProblem(admin.api.groups.update({ params: { groupId: builtIn.id }, body: { description: 'mine' } }), 'groups.group.built_in', 409);
    await expectProblem(admin.api.groups.remove({ params: { groupId: builtIn.id } }), 'groups.group.built_in', 409);
    expect((await admin.api.groups.list())[0]).to.deep.equal(builtIn);
  });

  it('refuses taken and reserved names and unknown members', async () => {
    const g = await admin.api.groups.create({ body: { name: uniqueName('dup') } });
    await expectProblem(admin.api.groups.create({ body: { name: g.name } }), 'groups.name.taken', 409);
    await expectProblem(admin.api.groups.create({ body: { name: 'users' } }), 'groups.name.reserved', 409);
    await expectProblem(admin.api.groups.create({ body: { name: 'sudo' } }), 'groups.name.reserved', 409);
    const p = await expectProblem(admin.api.groups.create({ body: { name: uniqueName('x'), memberIds: [987654] } }), 'groups.member.not_found', 400);
    expect(p.problem.params).to.deep.equal({ userIds: [987654] });
    const other = await admin.api.groups.create({ body: { name: uniqueName('other') } });
    await expectProblem(admin.api.groups.update({ params: { groupId: other.id }, body: { name: g.name } }), 'groups.name.taken', 409);
    await expectProblem(admin.api.groups.update({ params: { groupId: 987654 }, body: {} }), 'groups.group.not_found', 404);
    await expectProblem(admin.api.groups.remove({ params: { groupId: 987654 } }), 'groups.group.not_found', 404);
  });

  it('refuses the unauthenticated (401), non-administrators (403) and bad input (400) on every route', async () => {
    const anon = box.client();
    await expectProblem(anon.api.groups.list(), 'auth.session.required', 401);
    await expectProblem(anon.api.groups.create({ body: { name: 'x' } }), 'auth.session.required', 401);
    await expectProblem(anon.api.groups.update({ params: { groupId: 1 }, body: {} }), 'auth.session.required', 401);
    await expectProblem(anon.api.groups.remove({ params: { groupId: 1 } }), 'auth.session.required', 401);
    await expectProblem(plain.api.groups.list(), 'auth.permission.denied', 403);
    await expectProblem(plain.api.groups.create({ body: { name: 'x' } }), 'auth.permission.denied', 403);
    await expectProblem(plain.api.groups.update({ params: { groupId: 1 }, body: {} }), 'auth.permission.denied', 403);
    await expectProblem(plain.api.groups.remove({ params: { groupId: 1 } }), 'auth.permission.denied', 403);
    await expectProblem(admin.api.groups.create({ body: { name: 'Not Valid' } }), 'request.body.invalid', 400);
    await expectProblem(admin.api.groups.update({ params: { groupId: 1 }, body: { memberIds: ['a'] } as never }), 'request.body.invalid', 400);
    await expectProblem(admin.api.groups.remove({ params: { groupId: -1 } }), 'request.params.invalid', 400);
  });
});
