import { expect } from 'chai';
import type { Principal } from '../../daemon/src/core/principal.ts';
import { ProblemError } from '../../daemon/src/core/problem-error.ts';
import { maxTopicsPerSocket } from '../../shared/src/topics.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { connectSocket, expectRefused, type TestSocket } from '../helpers/socket.ts';

/** A topic family registered by the test as an area would: `test/<name>`, readable unless denied. */
function testProvider(denied: Set<string>, snapshots: Map<string, unknown>) {
  return {
    pattern: /^test\/[a-z0-9-]+$/,
    async subscribe(principal: Principal, topic: string) {
      if (denied.has(topic)) throw new ProblemError('auth.permission.denied');
      return { topic, username: principal.username, state: snapshots.get(topic) ?? 'idle' };
    },
    async mayRead(_principal: Principal, topic: string) {
      return !denied.has(topic);
    },
  };
}

/** Proves that nothing of `topic` arrived: a later event on `marker` comes first (one socket delivers in order). */
async function expectNoEvent(s: TestSocket, box: TestDaemon, topic: string, marker: string): Promise<void> {
  const arrived = s.nextEvent(marker);
  box.daemon.topics.publish(marker, 'marker', {});
  await arrived;
  expect(s.events.filter((e) => e.topic === topic)).to.deep.equal([]);
}

describe('topics: live topics over Socket.IO', () => {
  let box: TestDaemon;
  let admin: TestClient;
  const denied = new Set<string>();
  const snapshots = new Map<string, unknown>();
  const open: TestSocket[] = [];
  const connect = async (client: TestClient = admin): Promise<TestSocket> => {
    const s = await connectSocket(box.url, client);
    open.push(s);
    return s;
  };

  before(async () => {
    box = await startTestDaemon();
    box.daemon.topics.register(testProvider(denied, snapshots));
    box.daemon.topics.register({
      pattern: /^broken\/\d+$/,
      subscribe: async () => {
        throw new Error('disk on fire at /secret/path');
      },
      mayRead: async () => true,
    });
    admin = await box.signIn();
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
    denied.clear();
  });
  after(() => box.close());

  describe('handshake', () => {
    for (const transport of ['websocket', 'polling'] as const) {
      it(`refuses a connection without a session (${transport})`, async () => {
        const problem = await expectRefused(box.url, null, { transport });
        expect(problem).to.include({ code: 'auth.session.required', status: 401 });
        expect(problem.requestId).to.be.a('string').and.not.empty;
      });
    }

    it('refuses a forged session cookie', async () => {
      const forged = await expectRefused(box.url, null, { cookie: 'box.sid=s%3Aforged-session-id.bm90LWEtc2lnbmF0dXJl' });
      expect(forged.code).to.equal('auth.session.required');
    });

    it('refuses a page of another origin even with the session cookie', async () => {
      const problem = await expectRefused(box.url, null, { cookie: admin.cookieHeader(), origin: 'http://evil.example' });
      expect(problem).to.include({ code: 'auth.origin.invalid', status: 403 });
    });

    it('accepts a signed-in session over both transports', async () => {
      for (const transport of ['websocket', 'polling'] as const) {
        const s = await connectSocket(box.url, admin, { transport });
        open.push(s);
        expect(s.socket.connected).to.equal(true);
        expect(await s.subscribe('test/transport')).to.deep.include({ ok: true });
      }
    });
  });

  describe('subscribe, events, unsubscribe', () => {
    it('answers the snapshot of the topic in the ack', async () => {
      snapshots.set('test/snap', { progress: 40 });
      const s = await connect();
      const ack = await s.subscribe('test/snap');
      expect(ack).to.deep.equal({ ok: true, snapshot: { topic: 'test/snap', username: 'admin', state: { progress: 40 } } });
    });

    it('sends published events only to sockets subscribed to that exact topic', async () => {
      const a = await connect();
      const b = await connect();
      await a.subscribe('test/alpha');
      await b.subscribe('test/beta');
      const got = a.nextEvent('test/alpha');
      box.daemon.topics.publish('test/alpha', 'changed', { step: 1 });
      expect(await got).to.deep.equal({ topic: 'test/alpha', type: 'changed', data: { step: 1 } });
      await expectNoEvent(b, box, 'test/alpha', 'test/beta');
      // A topic nobody asked for reaches nobody, not even sockets of the same user.
      box.daemon.topics.publish('test/alpha-2', 'changed', {});
      await expectNoEvent(a, box, 'test/alpha-2', 'test/alpha');
    });

    it("publishToUser reaches only that user's sockets subscribed to the topic", async () => {
      const s = await connect();
      await s.subscribe('test/mine');
      const userId = admin.user!.id;
      box.daemon.topics.publishToUser(userId + 1000, 'test/mine', 'changed', { for: 'someone else' });
      const got = s.nextEvent('test/mine');
      box.daemon.topics.publishToUser(userId, 'test/mine', 'changed', { for: 'me' });
      expect((await got).data).to.deep.equal({ for: 'me' });
      expect(s.events.map((e) => e.data)).to.deep.equal([{ for: 'me' }]);
    });

    it('stops events after unsubscribe and keeps the other topics', async () => {
      const s = await connect();
      await s.subscribe('test/one');
      await s.subscribe('test/two');
      expect(await s.unsubscribe('test/one')).to.deep.equal({ ok: true });
      box.daemon.topics.publish('test/one', 'changed', { after: true });
      await expectNoEvent(s, box, 'test/one', 'test/two');
      // Unsubscribing again is harmless.
      expect(await s.unsubscribe('test/one')).to.deep.equal({ ok: true });
    });

    it('counts the sockets listening to a topic', async () => {
      const { topics } = box.daemon;
      expect(topics.listenerCount('test/counted')).to.equal(0);
      const a = await connect();
      const b = await connect();
      await a.subscribe('test/counted');
      await b.subscribe('test/counted');
      await a.subscribe('test/counted');
      expect(topics.listenerCount('test/counted')).to.equal(2);
      await a.unsubscribe('test/counted');
      expect(topics.listenerCount('test/counted')).to.equal(1);
      b.close();
      await b.waitForDisconnect();
      // The server notices the closed socket a moment later.
      for (let i = 0; i < 50 && topics.listenerCount('test/counted') > 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(topics.listenerCount('test/counted')).to.equal(0);
    });

    it('answers auth.permission.denied for a topic the user may not read, and sends it nothing', async () => {
      denied.add('test/secret');
      const s = await connect();
      await s.subscribe('test/open');
      const ack = await s.subscribe('test/secret');
      expect(ack.ok).to.equal(false);
      if (ack.ok) return;
      expect(ack.problem).to.include({ code: 'auth.permission.denied', status: 403, type: '/api/docs#error-auth.permission.denied' });
      box.daemon.topics.publish('test/secret', 'changed', {});
      await expectNoEvent(s, box, 'test/secret', 'test/open');
    });

    it('answers topics.topic.unknown for a topic no area provides', async () => {
      const s = await connect();
      const ack = await s.subscribe('nosuch/1');
      expect(ack).to.have.nested.property('problem.code', 'topics.topic.unknown');
      if (!ack.ok) expect(ack.problem).to.deep.include({ status: 404, params: { topic: 'nosuch/1' } });
      // Names that only look like a family are unknown too: the provider's pattern is exact.
      for (const topic of ['test/../../etc', 'test/a/b', 'TEST/a'])
        expect(await s.subscribe(topic), topic).to.have.nested.property('problem.code', 'topics.topic.unknown');
    });

    it('answers request.body.invalid for a malformed subscribe or unsubscribe', async () => {
      const s = await connect();
      for (const body of ['jobs/1', {}, { topic: 42 }, { topic: '' }, { topic: 'test/a\n' }, { topic: 'test/a', extra: 1 }, { topic: 'x'.repeat(5000) }]) {
        const ack = await s.subscribeRaw(body);
        expect(ack, JSON.stringify(body)).to.have.nested.property('problem.code', 'request.body.invalid');
        if (!ack.ok) expect(ack.problem.params?.errors).to.be.an('array').that.is.not.empty;
      }
      const bad = await s.socket.timeout(3000).emitWithAck('unsubscribe', { nope: true } as unknown as { topic: string });
      expect(bad).to.have.nested.property('problem.code', 'request.body.invalid');
      expect(s.socket.connected).to.equal(true);
    });

    it('closes a connection that sends an oversized message', async () => {
      const s = await connect();
      s.socket.emit('subscribe', { topic: `test/${'x'.repeat(100_000)}` }, () => {});
      await s.waitForDisconnect();
    });

    it('answers an unexpected provider failure as server.internal.error without internals', async () => {
      const s = await connect();
      const ack = await s.subscribe('broken/1');
      expect(ack).to.have.nested.property('problem.code', 'server.internal.error');
      expect(JSON.stringify(ack)).to.not.include('/secret/path');
    });

    it(`limits a connection to ${maxTopicsPerSocket} topics`, async () => {
      const s = await connect();
      const acks = await Promise.all(Array.from({ length: maxTopicsPerSocket }, (_, i) => s.subscribe(`test/t${i}`)));
      expect(acks.every((a) => a.ok)).to.equal(true);
      const over = await s.subscribe('test/one-too-many');
      expect(over).to.have.nested.property('problem.code', 'topics.subscriptions.too_many');
      // Re-subscribing a held topic is no new topic.
      expect((await s.subscribe('test/t0')).ok).to.equal(true);
      await s.unsubscribe('test/t0');
      expect((await s.subscribe('test/one-too-many')).ok).to.equal(true);
    });
  });
});
