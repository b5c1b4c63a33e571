import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { api } from '../../shared/src/api/index.ts';
import type { AppNotificationRequest } from '../../shared/src/api/notifications/notifications.ts';
import { buildUrl } from '../../shared/src/client.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { insertUser } from '../helpers/users.ts';

const dayMs = 24 * 60 * 60 * 1000;

describe('notifications', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let alice: TestClient;
  // The daemon's clock: tests move it forward to age notifications.
  const clock = { offset: 0, now: () => Date.now() + clock.offset };

  const send = (client: TestClient, title: string, extra: Partial<AppNotificationRequest> = {}) =>
    client.api.notifications.sendApp({ body: { appId: 'org.service.files', title, ...extra } });
  const rowsOf = async (userId: number) =>
    (await box.daemon.db.query<{ id: number }>('SELECT id FROM notifications WHERE user_id = ?', { replacements: [userId], type: QueryTypes.SELECT })).map(
      (r) => r.id,
    );

  before(async () => {
    box = await startTestDaemon({}, { clock });
    await insertUser(box, 'alice', 'alice password 1');
    admin = await box.signIn();
    alice = await box.signIn('alice', 'alice password 1');
  });
  after(() => box.close());
  beforeEach(async () => {
    clock.offset = 0;
    await admin.api.notifications.deleteAll();
    await alice.api.notifications.deleteAll();
  });

  it('refuses every notifications route without a session', async () => {
    for (const route of Object.values(api.notifications)) {
      const res = await box.client().request(route.method, buildUrl(route, { id: 1 }), { body: 'body' in route ? {} : undefined });
      expect(res.status, route.id).to.equal(401);
      expect((await res.json()).code, route.id).to.equal('auth.session.required');
    }
  });

  it('stores core-app notifications as app.message and lists them newest first', async () => {
    const first = await send(admin, 'Upload finished', { body: '3 files', level: 'success', link: '/apps/org.service.files?share=1' });
    expect(first).to.include({ type: 'app.message', appId: 'org.service.files', title: 'Upload finished', body: '3 files', level: 'success', read: false });
    expect(first.link).to.equal('/apps/org.service.files?share=1');
    const second = await send(admin, 'Second');
    expect(second).to.include({ body: '', level: 'info', link: null });
    const list = await admin.api.notifications.list();
    expect(list.items.map((n) => n.id)).to.deep.equal([second.id, first.id]);
    expect(list.unread).to.equal(2);
    expect((await alice.api.notifications.list()).items).to.deep.equal([]);
  });

  it('takes notifications from core apps only, and only those the caller may open', async () => {
    for (const appId of ['com.example.photos', 'org.service.nonexistent', 'org.service']) {
      await expectProblem(send(admin, 'Hi', { appId }), 'auth.permission.denied', 403);
    }
    await expectProblem(send(alice, 'Hi', { appId: 'org.service.logs' }), 'auth.permission.denied', 403);
    expect(await send(alice, 'Hi from files')).to.include({ appId: 'org.service.files' });
    expect(await send(admin, 'Hi from logs', { appId: 'org.service.logs' })).to.include({ appId: 'org.service.logs' });
  });

  it('answers invalid fields with 400 notifications.message.invalid and the field errors', async () => {
    const bad: unknown[] = [
      { appId: 'org.service.files' },
      { appId: 'org.service.files', title: '' },
      { appId: 'org.service.files', title: 'x'.repeat(201) },
      { appId: 'org.service.files', title: 'ok', level: 'loud' },
      { appId: 'org.service.files', title: 'ok', link: 'https://elsewhere.example/' },
      { appId: 'org.service.files', title: 'ok', link: '//elsewhere.example/' },
      { appId: 'org.service.files', title: 'ok', body: 42 },
      { appId: 'org.service.files', title: 'ok', colour: 'red' },
      { title: 'no app' },
      [],
    ];
    for (const body of bad) {
      const err = await expectProblem(admin.api.notifications.sendApp({ body: body as never }), 'notifications.message.invalid', 400);
      expect(err.problem.params?.errors, JSON.stringify(body)).to.be.an('array').that.is.not.empty;
    }
    const err = await expectProblem(send(admin, '', { level: 'loud' as never }), 'notifications.message.invalid', 400);
    expect((err.problem.params?.errors as { path: string }[]).map((e) => e.path)).to.have.members(['title', 'level']);
    expect((await admin.api.notifications.list()).items).to.deep.equal([]);
  });

  it('marks given ids read, ignoring unknown and foreign ids, or all without ids', async () => {
    const [a, b, c] = [await send(admin, 'a'), await send(admin, 'b'), await send(admin, 'c')];
    const hers = await send(alice, 'hers');
    await admin.api.notifications.markRead({ body: { ids: [a.id, 999999, hers.id] } });
    const list = await admin.api.notifications.list();
    expect(list.items.map((n) => [n.id, n.read])).to.deep.equal([
      [c.id, false],
      [b.id, false],
      [a.id, true],
    ]);
    expect(list.unread).to.equal(2);
    expect((await alice.api.notifications.list()).items[0]).to.include({ id: hers.id, read: false });
    await admin.api.notifications.markRead({ body: {} });
    expect((await admin.api.notifications.list()).unread).to.equal(0);
    expect((await alice.api.notifications.list()).unread).to.equal(1);
    await expectProblem(admin.api.notifications.markRead({ body: { ids: ['x'] as never } }), 'request.body.invalid', 400);
  });

  it("deletes one; an absent or someone else's answers 404 notifications.notification.not_found", async () => {
    const mine = await send(admin, 'mine');
    const hers = await send(alice, 'hers');
    await admin.api.notifications.delete({ params: { id: mine.id } });
    await expectProblem(admin.api.notifications.delete({ params: { id: mine.id } }), 'notifications.notification.not_found', 404);
    await expectProblem(admin.api.notifications.delete({ params: { id: hers.id } }), 'notifications.notification.not_found', 404);
    expect((await alice.api.notifications.list()).items.map((n) => n.id)).to.deep.equal([hers.id]);
    expect((await admin.request('DELETE', '/api/notifications/abc')).status).to.equal(400);
  });

  it("deletes all of the caller's notifications and nobody else's", async () => {
    await send(admin, 'one');
    await send(admin, 'two');
    const hers = await send(alice, 'hers');
    await admin.api.notifications.deleteAll();
    expect(await admin.api.notifications.list()).to.deep.equal({ items: [], unread: 0 });
    expect(await rowsOf(admin.user!.id)).to.deep.equal([]);
    expect((await alice.api.notifications.list()).items.map((n) => n.id)).to.deep.equal([hers.id]);
  });

  it('keeps at most the newest 200', async () => {
    const sent: number[] = [];
    for (let i = 0; i < 205; i++) sent.push((await send(admin, `n${i}`)).id);
    const list = await admin.api.notifications.list();
    expect(list.items).to.have.length(200);
    expect(list.items.map((n) => n.id)).to.deep.equal(sent.slice(5).reverse());
    expect((await rowsOf(admin.user!.id)).sort((x, y) => x - y)).to.deep.equal(sent.slice(5));
  });

  it('shows none older than 30 days and prunes them on the next write', async () => {
    const old = await send(admin, 'a month ago');
    const hersOld = await send(alice, 'hers, a month ago');
    clock.offset = 30 * dayMs - 60_000;
    expect((await admin.api.notifications.list()).items.map((n) => n.id)).to.deep.equal([old.id]);
    clock.offset = 30 * dayMs + 60_000;
    expect((await admin.api.notifications.list()).items).to.deep.equal([]);
    expect(await rowsOf(admin.user!.id)).to.deep.equal([old.id]);
    const fresh = await send(admin, 'today');
    expect(await rowsOf(admin.user!.id)).to.deep.equal([fresh.id]);
    // A write prunes only its own user; the daily run takes everybody's.
    expect(await rowsOf(alice.user!.id)).to.deep.equal([hersOld.id]);
    expect(await box.daemon.scheduler.runNow('notifications.prune')).to.equal(true);
    expect(await rowsOf(alice.user!.id)).to.deep.equal([]);
    expect(await rowsOf(admin.user!.id)).to.deep.equal([fresh.id]);
  });
});
