import { expect } from 'chai';
import type { Principal } from '../../daemon/src/core/principal.ts';
import { ProblemError } from '../../daemon/src/core/problem-error.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { connectSocket, expectRefused, type TestSocket } from '../helpers/socket.ts';

/** Sign-out, ended sessions, grant changes and deactivation reach open sockets at once. */
describe('topics: sessions and grants on open connections', () => {
  let box: TestDaemon;
  const denied = new Set<string>();
  /** Subscribes to `slow/<n>` wait here until the test lets them answer. */
  const slow = new Map<string, (snapshot: unknown) => void>();
  const open: TestSocket[] = [];
  const connect = async (client: TestClient): Promise<TestSocket> => {
    const s = await connectSocket(box.url, client);
    open.push(s);
    return s;
  };
  /** The session id inside the signed cookie `s:<sid>.<signature>`. */
  const sessionIdOf = (client: TestClient): string => {
    const value = decodeURIComponent(/box\.sid=([^;]+)/.exec(client.cookieHeader())?.[1] ?? '');
    return value.slice(2, value.lastIndexOf('.'));
  };
  const setActive = (userId: number, active: boolean) => box.daemon.db.query('UPDATE users SET active = ? WHERE id = ?', { replacements: [active, userId] });

  before(async () => {
    box = await startTestDaemon();
    box.daemon.topics.register({
      pattern: /^test\/[a-z0-9-]+$/,
      subscribe: async (_p: Principal, topic: string) => {
        if (denied.has(topic)) throw new ProblemError('auth.permission.denied');
        return { topic };
      },
      mayRead: async (_p: Principal, topic: string) => !denied.has(topic),
    });
    box.daemon.topics.register({
      pattern: /^slow\/\d+$/,
      subscribe: (_p: Principal, topic: string) => new Promise((resolve) => slow.set(topic, resolve)),
      mayRead: async (_p: Principal, topic: string) => !denied.has(topic),
    });
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
    denied.clear();
  });
  after(() => box.close());

  it('closes the socket at once on sign-out and refuses the signed-out cookie', async () => {
    const admin = await box.signIn();
    const other = await box.signIn();
    const s = await connect(admin);
    const kept = await connect(other);
    const cookie = admin.cookieHeader();
    await admin.api.auth.logout({});
    expect(await s.waitForDisconnect(1000)).to.equal('io server disconnect');
    // Only the signed-out session's sockets close.
    expect(kept.socket.connected).to.equal(true);
    expect((await kept.subscribe('test/still-here')).ok).to.equal(true);
    expect((await expectRefused(box.url, null, { cookie })).code).to.equal('auth.session.required');
  });

  it('closes the sockets of every session ended by endUserSessions, except the one kept', async () => {
    const first = await box.signIn();
    const second = await box.signIn();
    const keep = await box.signIn();
    const a = await connect(first);
    const a2 = await connect(first);
    const b = await connect(second);
    const c = await connect(keep);
    const userId = first.user!.id;
    await box.daemon.sessionStore.endUserSessions(userId, sessionIdOf(keep));
    await Promise.all([a, a2, b].map((s) => s.waitForDisconnect(1000)));
    expect(c.socket.connected).to.equal(true);
    expect((await c.subscribe('test/kept')).ok).to.equal(true);
  });

  it('stops a topic the user may no longer read after recheckUser, and keeps the others', async () => {
    const admin = await box.signIn();
    const s = await connect(admin);
    await s.subscribe('test/revoked');
    await s.subscribe('test/granted');
    denied.add('test/revoked');
    const ended = s.nextEnded('test/revoked');
    await box.daemon.topics.recheckUser(admin.user!.id);
    const { problem } = await ended;
    expect(problem).to.include({ code: 'auth.permission.denied', status: 403 });
    const granted = s.nextEvent('test/granted');
    box.daemon.topics.publish('test/revoked', 'changed', {});
    box.daemon.topics.publish('test/granted', 'changed', {});
    await granted;
    expect(s.events.map((e) => e.topic)).to.deep.equal(['test/granted']);
    expect(s.socket.connected).to.equal(true);
  });

  it('recheckAll re-checks every connected user', async () => {
    const admin = await box.signIn();
    const s = await connect(admin);
    await s.subscribe('test/group-grant');
    denied.add('test/group-grant');
    const ended = s.nextEnded('test/group-grant');
    await box.daemon.topics.recheckAll();
    expect((await ended).problem.code).to.equal('auth.permission.denied');
  });

  it('closes the sockets of a deactivated user on recheck and refuses new handshakes', async () => {
    const admin = await box.signIn();
    const s = await connect(admin);
    const userId = admin.user!.id;
    await setActive(userId, false);
    try {
      await box.daemon.topics.recheckUser(userId);
      await s.waitForDisconnect(1000);
      expect((await expectRefused(box.url, admin)).code).to.equal('auth.session.required');
    } finally {
      await setActive(userId, true);
    }
  });

  it('reads the user fresh on each subscribe: a deactivated user is answered auth.session.required and disconnected', async () => {
    const admin = await box.signIn();
    const s = await connect(admin);
    await setActive(admin.user!.id, false);
    try {
      const closed = s.waitForDisconnect(2000);
      expect(await s.subscribe('test/after-deactivation')).to.have.nested.property('problem.code', 'auth.session.required');
      expect(await closed).to.equal('io server disconnect');
    } finally {
      await setActive(admin.user!.id, true);
    }
  });

  it("keeps a live session's socket on the sweep and closes that of an expired one", async () => {
    const admin = await box.signIn();
    const s = await connect(admin);
    await box.daemon.topics.sweep();
    expect((await s.subscribe('test/alive')).ok, 'a live session survives the sweep').to.equal(true);
    // Expiry is a time, not an event: move the daemon's clock (same process) past the idle lifetime.
    const realNow = Date.now;
    Date.now = () => realNow() + 3 * 60 * 60 * 1000;
    try {
      await box.daemon.topics.sweep();
    } finally {
      Date.now = realNow;
    }
    expect(await s.waitForDisconnect(1000)).to.equal('io server disconnect');
  });

  it('delivers events published while a subscribe is in flight after its ack, in order', async () => {
    const admin = await box.signIn();
    const s = await connect(admin);
    const order: string[] = [];
    s.socket.on('event', (e) => order.push(`event:${(e.data as { n: number }).n}`));
    // A plain ack callback runs as its packet arrives, like the event listeners (a promise would run later).
    const acked = new Promise((resolve) => {
      s.socket.emit('subscribe', { topic: 'slow/1' }, (ack) => {
        order.push('ack');
        resolve(ack);
      });
    });
    while (!slow.has('slow/1')) await new Promise((r) => setTimeout(r, 5));
    box.daemon.topics.publish('slow/1', 'changed', { n: 1 });
    box.daemon.topics.publish('slow/1', 'changed', { n: 2 });
    slow.get('slow/1')!({ n: 0 });
    expect(await acked).to.deep.equal({ ok: true, snapshot: { n: 0 } });
    const third = s.nextEvent('slow/1');
    box.daemon.topics.publish('slow/1', 'changed', { n: 3 });
    await third;
    expect(order).to.deep.equal(['ack', 'event:1', 'event:2', 'event:3']);
  });

  it('answers the refusal in the ack when a re-check revokes a topic whose subscribe is in flight', async () => {
    const admin = await box.signIn();
    const s = await connect(admin);
    await s.subscribe('test/marker');
    const acked = s.subscribe('slow/2');
    while (!slow.has('slow/2')) await new Promise((r) => setTimeout(r, 5));
    denied.add('slow/2');
    let endedSent = false;
    s.socket.on('topic.ended', () => (endedSent = true));
    await box.daemon.topics.recheckUser(admin.user!.id);
    slow.get('slow/2')!({});
    // The refusal comes in the ack, since the client never held the topic.
    expect(await acked).to.have.nested.property('problem.code', 'auth.permission.denied');
    expect(endedSent).to.equal(false);
    const marker = s.nextEvent('test/marker');
    box.daemon.topics.publish('slow/2', 'changed', {});
    box.daemon.topics.publish('test/marker', 'changed', {});
    await marker;
    expect(s.events.map((e) => e.topic)).to.deep.equal(['test/marker']);
  });

  it('closes every socket when the daemon stops', async () => {
    const own = await startTestDaemon();
    const s = await connectSocket(own.url, await own.signIn());
    const closed = s.waitForDisconnect(2000);
    await own.close();
    await closed;
  });
});
