import { expect } from 'chai';
import { adminPassword, expectProblem, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';

describe('platform: errors, request ids, sessions and CSRF', () => {
  let box: TestDaemon;
  before(async () => {
    box = await startTestDaemon();
  });
  after(() => box.close());

  it('answers health and setup publicly', async () => {
    const c = box.client();
    expect(await c.api.system.health()).to.include({ status: 'ok' });
    const setup = await c.api.system.setup();
    expect(setup).to.include({ product: 'Cellar', mode: 'development', language: 'en' });
  });

  it('puts a request id on every answer and keeps a sane incoming one', async () => {
    const c = box.client();
    const fresh = await c.request('GET', '/api/health');
    expect(fresh.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    const kept = await c.request('GET', '/api/health', { headers: { 'X-Request-Id': 'support-ticket-1234' } });
    expect(kept.headers.get('x-request-id')).to.equal('support-ticket-1234');
    const replaced = await c.request('GET', '/api/health', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).to.not.equal('bad id with spaces');
  });

  it("gives API answers the API's security headers and pages helmet's", async () => {
    const c = box.client();
    for (const url of ['/api/health', '/api/no/such/thing', '/api/openapi.json']) {
      const res = await c.request('GET', url);
      expect(
        Object.fromEntries(
          [...res.headers].filter(([name]) => !['content-length', 'content-type', 'date', 'x-request-id', 'connection', 'keep-alive'].includes(name)),
        ),
        url,
      ).to.deep.equal({
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'cross-origin-resource-policy': 'same-origin',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
      });
    }
    for (const url of ['/api/docs', '/desktop/anything']) {
      const res = await c.request('GET', url);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, url).to.include("script-src 'self'").and.include("default-src 'self'").and.include("object-src 'none'");
      expect(res.headers.get('x-frame-options'), url).to.equal('SAMEORIGIN');
      expect(res.headers.get('cross-origin-opener-policy'), url).to.equal('same-origin');
      expect(res.headers.get('x-content-type-options'), url).to.equal('nosniff');
    }
  });

  it('answers unknown routes with problem details', async () => {
    const res = await box.client().request('GET', '/api/no/such/thing');
    expect(res.status).to.equal(404);
    expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
    const body = await res.json();
    expect(body).to.include({ code: 'request.route.not_found', status: 404 });
    expect(body.requestId).to.equal(res.headers.get('x-request-id'));
  });

  it('answers malformed JSON and invalid bodies with request.body.invalid and field errors', async () => {
    const c = box.client();
    const malformed = await c.request('POST', '/api/auth/login', { body: '{"username": ', headers: { 'Content-Type': 'application/json' } });
    expect(malformed.status).to.equal(400);
    expect((await malformed.json()).code).to.equal('request.body.invalid');
    const err = await expectProblem(c.api.auth.login({ body: { username: '', password: 5 } as never }), 'request.body.invalid', 400);
    const paths = (err.problem.params?.errors as { path: string }[]).map((e) => e.path);
    expect(paths).to.have.members(['username', 'password']);
  });

  it('answers an oversized body with 413 request.body.too_large', async () => {
    const res = await box.client().request('POST', '/api/auth/login', { body: { username: 'admin', password: 'x'.repeat(200_000) } });
    expect(res.status).to.equal(413);
    expect((await res.json()).code).to.equal('request.body.too_large');
  });

  it('refuses a wrong password with the same answer as an unknown user', async () => {
    const c = box.client();
    const wrong = await expectProblem(c.api.auth.login({ body: { username: 'admin', password: 'nope' } }), 'auth.credentials.invalid', 401);
    const unknown = await expectProblem(c.api.auth.login({ body: { username: 'nobody', password: 'nope' } }), 'auth.credentials.invalid', 401);
    expect(wrong.problem.detail).to.equal(unknown.problem.detail);
  });

  it('signs in with an HttpOnly SameSite=Strict box.sid cookie and reads the session', async () => {
    const c = box.client();
    const res = await c.request('POST', '/api/auth/login', { body: { username: 'admin', password: adminPassword } });
    expect(res.status).to.equal(200);
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith('box.sid='));
    expect(cookie)
      .to.match(/HttpOnly/i)
      .and.match(/SameSite=Strict/i);
    const body = await res.json();
    expect(body.state).to.equal('signedIn');
    expect(body.user).to.include({ username: 'admin', admin: true, totpEnabled: false });
    expect(body.user.csrfToken).to.be.a('string').with.length.above(20);
    c.csrfToken = body.user.csrfToken;
    const session = await c.api.auth.session();
    expect(session.csrfToken).to.equal(body.user.csrfToken);
  });

  it('answers 401 auth.session.required without a session', async () => {
    await expectProblem(box.client().api.auth.session(), 'auth.session.required', 401);
  });

  it('needs the CSRF token on state-changing requests of a session', async () => {
    const c = await box.signIn();
    const without = await c.request('POST', '/api/auth/logout', { csrf: false });
    expect(without.status).to.equal(403);
    expect((await without.json()).code).to.equal('auth.csrf.invalid');
    const wrong = await c.request('POST', '/api/auth/logout', { headers: { 'X-CSRF-Token': 'forged' } });
    expect((await wrong.json()).code).to.equal('auth.csrf.invalid');
    await c.api.auth.logout();
    await expectProblem(c.api.auth.session(), 'auth.session.required');
  });

  it('refuses a sign-in from another site by its Origin', async () => {
    const res = await box
      .client()
      .request('POST', '/api/auth/login', { body: { username: 'admin', password: adminPassword }, headers: { Origin: 'https://evil.example' } });
    expect(res.status).to.equal(403);
    expect((await res.json()).code).to.equal('auth.origin.invalid');
  });

  it('keeps two daemons of one process on their own databases', async () => {
    const other = await startTestDaemon();
    try {
      await (await other.signIn()).api.users.create({ body: { username: 'onlyother', password: 'a long enough password 1' } });
      // The first daemon still answers from its own database after the second one opened.
      const c = await box.signIn();
      expect((await c.api.auth.session()).username).to.equal('admin');
      const users = await c.api.users.list();
      expect(users.map((u) => u.username)).to.deep.equal(['admin']);
    } finally {
      await other.close();
    }
    const again = await box.signIn();
    expect((await again.api.auth.session()).username).to.equal('admin');
  });

  it('keeps sessions across a daemon restart', async () => {
    const own = await startTestDaemon();
    const c = await own.signIn();
    await own.close({ keepData: true });
    const again = await startTestDaemon({ dataDir: own.dataDir });
    try {
      const res = await fetch(`${again.url}/api/auth/session`, { headers: { Cookie: c.cookieHeader() } });
      expect(res.status).to.equal(200);
      expect((await res.json()).username).to.equal('admin');
    } finally {
      await again.close();
    }
  });
});
