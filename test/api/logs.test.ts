import { expect } from 'chai';
import type { LogEntry } from '../../shared/src/api/logs/logs.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { hoursAgo, seedLogs } from '../helpers/logs.ts';
import { connectSocket } from '../helpers/socket.ts';
import { insertUser } from '../helpers/users.ts';

describe('logs: search, app batches, sources, live tail', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let user: TestClient;
  // Frozen while the rate test runs, so only the test moves the token bucket's time.
  let frozenAt: number | null = null;
  const clock = { now: () => frozenAt ?? Date.now() };

  before(async () => {
    box = await startTestDaemon({}, { clock });
    admin = await box.signIn();
    await insertUser(box, 'carol', 'carol password 123');
    user = await box.signIn('carol', 'carol password 123');
    seedLogs(box, [
      { level: 'info', source: 'system/alpha', message: 'alpha started', time: hoursAgo(3), fields: { unit: 'alpha' } },
      { level: 'warn', source: 'system/alpha', message: 'alpha disk nearly full', time: hoursAgo(2) },
      { level: 'error', source: 'system/beta', message: 'beta crashed', time: hoursAgo(1), fields: { code: 'EXPLODED' } },
      { level: 'debug', source: 'system/beta', message: 'beta detail', time: hoursAgo(0.5) },
    ]);
  });
  after(() => box.close());

  const messages = (items: LogEntry[]) => items.map((e) => e.message);
  const list = (query: Parameters<TestClient['api']['logs']['list']>[0] extends infer A ? (A extends { query?: infer Q } ? Q : never) : never) =>
    admin.api.logs.list({ query });

  describe('refusals', () => {
    it('answers 401 auth.session.required on every route without a session', async () => {
      const anon = box.client();
      await expectProblem(anon.api.logs.list({ query: {} }), 'auth.session.required', 401);
      await expectProblem(anon.api.logs.export({ query: {} }), 'auth.session.required', 401);
      await expectProblem(anon.api.logs.status(), 'auth.session.required', 401);
      await expectProblem(
        anon.api.logs.updateSettings({ body: { maxBytes: 2 ** 20, retentionDays: 7, archive: false, archiveRetentionDays: 365, archivePool: null } }),
        'auth.session.required',
        401,
      );
      await expectProblem(anon.api.logs.sources(), 'auth.session.required', 401);
      await expectProblem(
        anon.api.logs.appBatch({ params: { app: 'org.service.files' }, body: { entries: [{ level: 'info', message: 'x' }] } }),
        'auth.session.required',
        401,
      );
    });

    it('answers 403 auth.permission.denied to a non-administrator on every administrator route', async () => {
      await expectProblem(user.api.logs.list({ query: {} }), 'auth.permission.denied', 403);
      await expectProblem(user.api.logs.export({ query: {} }), 'auth.permission.denied', 403);
      await expectProblem(user.api.logs.status(), 'auth.permission.denied', 403);
      await expectProblem(
        user.api.logs.updateSettings({ body: { maxBytes: 2 ** 20, retentionDays: 7, archive: false, archiveRetentionDays: 365, archivePool: null } }),
        'auth.permission.denied',
        403,
      );
      await expectProblem(user.api.logs.sources(), 'auth.permission.denied', 403);
    });

    it('refuses app batches of apps that are not core apps, or of core apps the caller may not open', async () => {
      const entries = [{ level: 'info' as const, message: 'x' }];
      for (const c of [user, admin]) {
        for (const app of ['com.example.notes', 'org.service.notes']) {
          await expectProblem(c.api.logs.appBatch({ params: { app }, body: { entries } }), 'auth.permission.denied', 403);
        }
      }
      // The Logs app is for administrators: a user writes nothing under its source, nor spends its budget.
      await expectProblem(user.api.logs.appBatch({ params: { app: 'org.service.logs' }, body: { entries } }), 'auth.permission.denied', 403);
      expect(
        await admin.api.logs.appBatch({ params: { app: 'org.service.logs' }, body: { entries: [{ level: 'info', message: 'logs app opened' }] } }),
      ).to.include({
        accepted: 1,
      });
    });

    it('answers 400 for bad input on every route', async () => {
      await expectProblem(list({ limit: 0 }), 'request.query.invalid', 400);
      await expectProblem(list({ limit: 1001 }), 'request.query.invalid', 400);
      await expectProblem(list({ level: ['fatal'] } as never), 'request.query.invalid', 400);
      await expectProblem(list({ from: 'yesterday' }), 'request.query.invalid', 400);
      await expectProblem(list({ source: ['../etc'] }), 'request.query.invalid', 400);
      await expectProblem(list({ search: 'x', codeWords: 'auth.signedIn' }), 'request.query.invalid', 400);
      await expectProblem(list({ search: 'x', codeWords: '0:auth signedIn' }), 'request.query.invalid', 400);
      await expectProblem(list({ search: 'x', codeWords: Array.from({ length: 600 }, () => '0:a.long.code').join(',') }), 'request.query.invalid', 400);
      await expectProblem(list({ cursor: 'forged' }), 'logs.cursor.invalid', 400);
      await expectProblem(admin.api.logs.export({ query: { format: 'xml' } as never }), 'request.query.invalid', 400);
      await expectProblem(
        admin.api.logs.updateSettings({
          body: { maxBytes: 4 * 1024 ** 3 + 1, retentionDays: 7, archive: false, archiveRetentionDays: 365, archivePool: null },
        }),
        'request.body.invalid',
        400,
      );
      await expectProblem(
        admin.api.logs.updateSettings({ body: { maxBytes: 2 ** 20, retentionDays: 0, archive: false, archiveRetentionDays: 365, archivePool: null } }),
        'request.body.invalid',
        400,
      );
      const tooMany = Array.from({ length: 101 }, () => ({ level: 'info' as const, message: 'x' }));
      await expectProblem(user.api.logs.appBatch({ params: { app: 'org.service.files' }, body: { entries: tooMany } }), 'request.body.invalid', 400);
      await expectProblem(
        user.api.logs.appBatch({ params: { app: 'org.service.files' }, body: { entries: [{ level: 'loud', message: 'x' }] } as never }),
        'request.body.invalid',
        400,
      );
      const status = await fetch(`${box.url}/api/logs/sources?x=1`, { headers: { Cookie: admin.cookieHeader() } });
      expect(status.status).to.equal(200);
    });

    it('refuses an archive while no pool can hold it', async () => {
      const err = await expectProblem(
        admin.api.logs.updateSettings({ body: { maxBytes: 2 ** 30, retentionDays: 30, archive: true, archiveRetentionDays: 365, archivePool: null } }),
        'logs.archive.no_pool',
        409,
      );
      expect(err.problem.params).to.deep.equal({ pool: null });
    });
  });

  describe('filters', () => {
    const ours = ['system/alpha', 'system/beta'];

    it('lists newest first with the default limit of 200 and a cursor for more', async () => {
      const page = await list({});
      expect(page.items.length).to.be.at.most(200);
      const times = page.items.map((e) => Date.parse(e.time));
      expect(times).to.deep.equal([...times].sort((a, b) => b - a));
      const mine = await list({ source: ours });
      expect(messages(mine.items)).to.deep.equal(['beta detail', 'beta crashed', 'alpha disk nearly full', 'alpha started']);
      expect(mine.nextCursor).to.equal(null);
    });

    it('filters by level (repeatable)', async () => {
      expect(messages((await list({ source: ours, level: ['error'] })).items)).to.deep.equal(['beta crashed']);
      expect(messages((await list({ source: ours, level: ['warn', 'info'] })).items)).to.deep.equal(['alpha disk nearly full', 'alpha started']);
      const errors = await list({ level: ['error'] });
      expect(errors.items.every((e) => e.level === 'error')).to.equal(true);
    });

    it('filters by source (repeatable)', async () => {
      expect(messages((await list({ source: ['system/alpha'] })).items)).to.deep.equal(['alpha disk nearly full', 'alpha started']);
      expect((await list({ source: ['system/nobody'] })).items).to.deep.equal([]);
    });

    it('filters by time range, both ends inclusive', async () => {
      const page = await list({ source: ours, from: hoursAgo(2.5), to: hoursAgo(0.75) });
      expect(messages(page.items)).to.deep.equal(['beta crashed', 'alpha disk nearly full']);
    });

    it('searches words in message and fields, with prefixes', async () => {
      expect(messages((await list({ search: 'disk full' })).items)).to.deep.equal(['alpha disk nearly full']);
      expect(messages((await list({ search: 'exploded' })).items)).to.deep.equal(['beta crashed']);
      expect(messages((await list({ search: 'cras', source: ours })).items)).to.deep.equal(['beta crashed']);
      expect((await list({ search: 'NEAR( "unbalanced' })).items).to.deep.equal([]);
    });

    it('combines filters', async () => {
      expect(messages((await list({ search: 'alpha', level: ['info'], source: ['system/alpha'], to: hoursAgo(2.5) })).items)).to.deep.equal(['alpha started']);
      expect((await list({ search: 'alpha', level: ['error'] })).items).to.deep.equal([]);
    });

    it('pages with limit and cursor without gaps or repeats', async () => {
      const first = await list({ source: ours, limit: 3 });
      expect(first.items).to.have.length(3);
      const second = await list({ source: ours, limit: 3, cursor: first.nextCursor as string });
      expect(messages([...first.items, ...second.items])).to.deep.equal(['beta detail', 'beta crashed', 'alpha disk nearly full', 'alpha started']);
      expect(second.nextCursor).to.equal(null);
    });
  });

  it('finds every entry of a failed request by its X-Request-Id', async () => {
    const res = await box.client().request('POST', '/api/auth/login', { body: { username: 'admin', password: 'wrong password' } });
    expect(res.status).to.equal(401);
    const requestId = res.headers.get('x-request-id') as string;
    const page = await list({ search: requestId });
    expect(page.items.length).to.be.greaterThan(0);
    expect(page.items.every((e) => e.requestId === requestId)).to.equal(true);
    expect(messages(page.items)).to.include('sign-in refused');
  });

  describe('message codes', () => {
    it('answers a daemon entry with its code and params, never a secret among them', async () => {
      const page = await list({ search: 'signed in carol' });
      const signedIn = page.items.find((e) => e.code === 'auth.signedIn');
      expect(signedIn?.params).to.deep.equal({ username: 'carol', how: 'password' });
      expect(signedIn?.message).to.equal('signed in');
      box.daemon.logger.info('test coded entry', { logCode: 'test.coded', component: 'test', share: 'Family', password: 'hunter2', nested: { a: 1 } });
      const coded = (await list({ search: 'coded entry' })).items[0];
      expect(coded).to.include({ code: 'test.coded', message: 'test coded entry' });
      expect(coded?.params).to.deep.equal({ share: 'Family' });
      expect(coded?.fields).to.deep.equal({ component: 'test', share: 'Family', password: '[redacted]', nested: { a: 1 } });
    });

    it("matches a search word against a code's text in the reader's language when the web names the code (codeWords)", async () => {
      // carol's sign-in reads "carol hat sich angemeldet" in German; the box keeps "signed in".
      expect((await list({ search: 'carol angemeldet' })).items).to.deep.equal([]);
      const found = (await list({ search: 'carol angemeldet', codeWords: '1:auth.signedIn' })).items;
      expect(found.map((e) => [e.code, e.params.username])).to.deep.equal([['auth.signedIn', 'carol']]);
      // Every word must still match: the name is not admin's, and a code for the wrong word finds nothing.
      expect((await list({ search: 'admin angemeldet', codeWords: '1:auth.signedIn' })).items.map((e) => e.params.username)).to.not.include('carol');
      expect((await list({ search: 'carol angemeldet', codeWords: '0:auth.signedIn' })).items).to.deep.equal([]);
      // Many codes at once (a short word finds dozens): one value, not cut off by the query parser's limit on repeats.
      const many = [...Array.from({ length: 30 }, (_, i) => `0:other.code${i}`), '1:auth.signedIn'].join(',');
      expect((await list({ search: 'carol angemeldet', codeWords: many })).items.map((e) => e.params.username)).to.deep.equal(['carol']);
      // The histogram counts the same entries.
      const counts = await admin.api.logs.histogram({ query: { search: 'carol angemeldet', codeWords: '1:auth.signedIn', buckets: 1 } });
      expect(counts.buckets[0]?.counts.info).to.equal(1);
    });

    it("gives every entry of a job its task's title, so the Logs app names what the job does", async () => {
      const title = { code: 'files.copy', params: { count: 2, target: 'Family' } };
      box.daemon.jobs.register('test.titled', { title: () => title, run: () => Promise.resolve(null) });
      const job = await box.daemon.jobs.enqueue('test.titled', {}, admin.user!.id);
      const ofJob = async () => (await list({ search: String(job.id), source: ['daemon'] })).items.filter((e) => e.params.jobId === job.id);
      const deadline = Date.now() + 10_000;
      let entries = await ofJob();
      while (!entries.some((e) => e.code === 'jobs.finished') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        entries = await ofJob();
      }
      expect(entries.map((e) => e.code).sort()).to.deep.equal(['jobs.finished', 'jobs.started']);
      for (const entry of entries) expect(entry.fields.task).to.deep.equal(title);
    });

    it('answers entries written without a code (foreign sources, apps) with code null and no params', async () => {
      const page = await list({ source: ['system/alpha'] });
      expect(page.items.length).to.be.greaterThan(0);
      for (const entry of page.items) expect(entry).to.deep.include({ code: null, params: {} });
    });
  });

  describe('app batches', () => {
    it('stores entries as app/<app> for the caller, leaves debug out and redacts secrets', async () => {
      const answer = await user.api.logs.appBatch({
        params: { app: 'org.service.files' },
        body: {
          entries: [
            { level: 'info', message: 'note saved', fields: { noteId: 7, password: 'hunter2' } },
            { level: 'debug', message: 'render' },
            { level: 'error', message: 'sync failed', requestId: 'client-req-0001' },
          ],
        },
      });
      expect(answer).to.deep.equal({ accepted: 2, dropped: 0, debugIgnored: 1 });
      const page = await list({ source: ['app/org.service.files'] });
      expect(messages(page.items)).to.deep.equal(['sync failed', 'note saved']);
      expect(page.items[1]).to.include({ userId: user.user?.id, level: 'info' });
      expect(page.items[1]?.fields).to.deep.equal({ noteId: 7, password: '[redacted]' });
      expect(page.items[0]?.requestId).to.equal('client-req-0001');
    });

    it('allows a burst of 200, then 20 entries a second, per app and user, and counts the rest as dropped', async () => {
      frozenAt = Date.now();
      const app = { app: 'org.service.files' };
      const before = (await list({ source: ['app/org.service.files'], limit: 1000 })).items.length;
      const batch = (n: number) => ({ entries: Array.from({ length: n }, (_, i) => ({ level: 'info' as const, message: `burst ${i}` })) });
      expect(await admin.api.logs.appBatch({ params: app, body: batch(100) })).to.include({ accepted: 100, dropped: 0 });
      expect(await admin.api.logs.appBatch({ params: app, body: batch(100) })).to.include({ accepted: 100, dropped: 0 });
      expect(await admin.api.logs.appBatch({ params: app, body: batch(50) })).to.include({ accepted: 0, dropped: 50 });
      // The administrator used up only their own budget: the app's entries from another user still go in.
      expect(await user.api.logs.appBatch({ params: app, body: batch(50) })).to.include({ accepted: 50, dropped: 0 });
      frozenAt += 1000;
      expect(await admin.api.logs.appBatch({ params: app, body: batch(100) })).to.include({ accepted: 20, dropped: 80 });
      frozenAt += 500;
      expect(await admin.api.logs.appBatch({ params: app, body: batch(100) })).to.include({ accepted: 10, dropped: 90 });
      // Another app has its own bucket.
      expect(await admin.api.logs.appBatch({ params: { app: 'org.service.overview' }, body: batch(100) })).to.include({ accepted: 100, dropped: 0 });
      const stored = await list({ source: ['app/org.service.files'], limit: 1000 });
      expect(stored.items).to.have.length(before + 280);
      frozenAt = null;
    });
  });

  // Mocha runs a suite's own tests before its nested suites: these read what the suites above wrote.
  describe('after the writes above', () => {
    it('lists the sources that wrote entries', async () => {
      const sources = await admin.api.logs.sources();
      expect(sources).to.include.members(['daemon', 'system/alpha', 'system/beta', 'app/org.service.files']);
      expect(sources).to.deep.equal([...sources].sort());
    });

    it('tails new entries live for administrators only', async () => {
      const socket = await connectSocket(box.url, admin);
      const refused = await connectSocket(box.url, user);
      try {
        const ack = await socket.subscribe('logs/tail');
        expect(ack.ok).to.equal(true);
        const snapshot = (ack as { snapshot: LogEntry[] }).snapshot;
        expect(snapshot.length).to.be.within(1, 100);
        const denied = await refused.subscribe('logs/tail');
        expect(denied).to.deep.include({ ok: false });
        expect((denied as { problem: { code: string } }).problem.code).to.equal('auth.permission.denied');
        const next = socket.nextEvent('logs/tail', 3000);
        seedLogs(box, [{ level: 'warn', source: 'system/gamma', message: 'tail me' }]);
        const event = await next;
        expect(event.type).to.equal('entries');
        expect(messages(event.data as LogEntry[])).to.include('tail me');
      } finally {
        socket.close();
        refused.close();
      }
    });
  });
});
