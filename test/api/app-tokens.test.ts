import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppManifest } from '../../shared/src/api/apps/app-manifest.ts';
import type { Clock } from '../../daemon/src/core/clock.ts';
import { buildAppPackage } from '../../build/scripts/build-app-package.js';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { eventually } from '../helpers/desktop.ts';
import { finished } from '../helpers/file-operations.ts';
import { tgzOf } from '../helpers/tar-builder.ts';
import { insertUser } from '../helpers/users.ts';

const example = JSON.parse(readFileSync('examples/hello-app/manifest.json', 'utf8')) as AppManifest;
const appId = example.id;

/** A frontend-only app (no backend) of the tests. */
const plainApp = () =>
  tgzOf([
    { name: 'manifest.json', body: JSON.stringify({ ...example, id: 'org.example.plain', backend: null }) },
    { name: 'icon.svg', body: readFileSync('examples/hello-app/icon.svg') },
    { name: 'frontend/', type: 'dir' },
    { name: 'frontend/index.html', body: '<!doctype html><title>plain</title>' },
  ]);

describe('app tokens, the API for apps and frontends', function () {
  this.timeout(60_000);
  let offset = 0;
  const clock: Clock = { now: () => Date.now() + offset };
  let box: TestDaemon;
  let admin: TestClient;
  let user: TestClient;
  let userId: number;
  let built: string;
  let webDir: string;

  const install = async (body: Buffer) => {
    const preview = await admin.api.apps.uploadPackage({ body });
    const job = await finished(admin, (await admin.api.apps.install({ params: { packageId: preview.packageId }, body: { pool: 'tank' } })).id);
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
  };
  const token = async (client: TestClient, kind: 'host' | 'backend' = 'host', instanceId = 'window-0001') =>
    (await client.api.apps.issueToken({ params: { appId }, body: { kind, instanceId } })).token;
  /** Calls the API for apps as a sandboxed page does: the bearer token and its window, no cookie. */
  const asApp = (bearer: string | null, method: string, route: string, body?: unknown, instanceId: string | null = 'window-0001') =>
    fetch(`${box.url}${route}`, {
      method,
      headers: {
        ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
        ...(instanceId ? { 'X-Cellar-Instance': instanceId } : {}),
        ...(body ? { 'Content-Type': 'application/json' } : {}),
        Origin: 'null',
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  const asWindow = (bearer: string, instanceId: string | null, route = '/api/app/me') => asApp(bearer, 'GET', route, undefined, instanceId);
  const closeWindow = (client: TestClient, instanceId: string) => client.api.apps.closeWindow({ params: { appId }, query: { instanceId } });
  const expectRefused = async (res: Response) => {
    expect(res.status).to.equal(401);
    expect((await res.json()).code).to.equal('app.token.invalid');
  };

  before(async () => {
    // A desktop page, as a box serves one: every other GET outside /api falls back to it.
    webDir = await mkdtemp(path.join(tmpdir(), 'cellar-tokens-web-'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>desktop</title>');
    box = await startTestDaemon({ webDir }, { clock });
    admin = await box.signIn();
    userId = await insertUser(box, 'uma', 'uma-password-1');
    user = await box.signIn('uma', 'uma-password-1');
    built = await buildAppPackage('examples/hello-app', await mkdtemp(path.join(tmpdir(), 'cellar-tokens-')));
    await install(readFileSync(built));
    await install(plainApp());
  });
  after(async () => {
    await box?.close();
    await rm(path.dirname(built), { recursive: true, force: true });
    await rm(webDir, { recursive: true, force: true });
  });

  it('issues a host token valid for 5 minutes that says who the window’s user is', async () => {
    const issued = await user.api.apps.issueToken({ params: { appId }, body: { kind: 'host', instanceId: 'window-0001' } });
    expect(issued.kind).to.equal('host');
    expect(new Date(issued.expiresAt).getTime() - clock.now()).to.be.within(5 * 60_000 - 2000, 5 * 60_000);
    const res = await asApp(issued.token, 'GET', '/api/app/me');
    expect(res.status).to.equal(200);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    expect(await res.json()).to.deep.equal({
      appId,
      user: { id: userId, username: 'uma', displayName: 'uma' },
      language: 'en',
      permissions: ['notifications'],
      logLevel: 'info',
    });
  });

  it('needs the session cookie and the CSRF header to issue one, and refuses an app the user may not use', async () => {
    const anonymous = await box.client().request('POST', `/api/apps/${appId}/tokens`, { body: { kind: 'host', instanceId: 'window-0001' } });
    expect(anonymous.status).to.equal(401);
    const noCsrf = await user.request('POST', `/api/apps/${appId}/tokens`, { body: { kind: 'host', instanceId: 'window-0001' }, csrf: false });
    expect(noCsrf.status).to.equal(403);
    expect((await noCsrf.json()).code).to.equal('auth.csrf.invalid');
    await expectProblem(
      user.api.apps.issueToken({ params: { appId: 'org.example.nothing' }, body: { kind: 'host', instanceId: 'window-0001' } }),
      'app.app.not_found',
      404,
    );
    await expectProblem(
      user.api.apps.issueToken({ params: { appId: 'org.example.plain' }, body: { kind: 'backend', instanceId: 'window-0001' } }),
      'app.backend.missing',
      409,
    );
  });

  it('takes only a host token: no token, the session cookie alone, a backend token or a made-up one are refused', async () => {
    await expectRefused(await asApp(null, 'GET', '/api/app/me'));
    await expectRefused(await user.request('GET', '/api/app/me'));
    await expectRefused(await user.request('GET', '/api/app/me', { headers: { 'X-Cellar-Instance': 'window-0001' } }));
    await expectRefused(await user.request('POST', '/api/app/notifications', { body: { title: 'from the cookie' } }));
    await expectRefused(await asApp(await token(user, 'backend'), 'GET', '/api/app/me'));
    await expectRefused(await asApp('A'.repeat(43), 'GET', '/api/app/me'));
  });

  it('takes a token only from the window it was issued for, and ends it when that window closes', async () => {
    const first = await token(user, 'host', 'window-0001');
    const second = await token(user, 'host', 'window-0002');
    // Lifted into another window, or sent without naming one, the token is no token.
    await expectRefused(await asWindow(first, 'window-0002'));
    await expectRefused(await asWindow(first, null));
    await expectRefused(await asWindow(first, 'bad window'));
    expect((await asWindow(first, 'window-0001')).status).to.equal(200);

    // Closing needs the session's CSRF header like every other change.
    const noCsrf = await user.request('DELETE', `/api/apps/${appId}/tokens?instanceId=window-0001`, { csrf: false });
    expect(noCsrf.status).to.equal(403);
    expect((await asWindow(first, 'window-0001')).status).to.equal(200);
    await closeWindow(user, 'window-0001');
    await expectRefused(await asWindow(first, 'window-0001'));
    // Only that window's tokens end; closing it again changes nothing.
    expect((await asWindow(second, 'window-0002')).status).to.equal(200);
    await closeWindow(user, 'window-0001');
    await expectProblem(closeWindow(user, 'x'), 'request.query.invalid', 400);
  });

  it('keeps one session’s windows apart from another’s, even of the same user and window id', async () => {
    const other = await box.signIn('uma', 'uma-password-1');
    const mine = await token(user, 'host', 'window-0003');
    const theirs = await token(other, 'host', 'window-0003');
    await closeWindow(other, 'window-0003');
    await closeWindow(admin, 'window-0003');
    await expectRefused(await asWindow(theirs, 'window-0003'));
    expect((await asWindow(mine, 'window-0003')).status).to.equal(200);
    await other.api.auth.logout();
  });

  it('lets only a backend token of its window through to the backend, which learns the user and the window', async () => {
    const backend = await token(user, 'backend', 'window-0004');
    const reached = await eventually(
      () => asWindow(backend, 'window-0004', `/api/app-backend/${appId}/visit`),
      (res) => res.status === 200,
      'the example backend answering through the box',
    );
    expect(await reached.json()).to.deep.include({ user: 'uma', window: 'window-0004' });
    // The window's header is the daemon's to set: a page cannot name another window to the backend.
    const claimed = await fetch(`${box.url}/api/app-backend/${appId}/visit`, {
      headers: { Authorization: `Bearer ${backend}`, 'X-Cellar-Instance': 'window-0004', 'X-Cellar-Username': 'admin' },
    });
    expect(await claimed.json()).to.deep.include({ user: 'uma', window: 'window-0004' });
    await expectRefused(await asWindow(backend, 'window-0005', `/api/app-backend/${appId}/visit`));
    await expectRefused(await asWindow(backend, null, `/api/app-backend/${appId}/visit`));
    await expectRefused(await asWindow(await token(user, 'host', 'window-0004'), 'window-0004', `/api/app-backend/${appId}/visit`));
    await expectRefused(await user.request('GET', `/api/app-backend/${appId}/visit`, { headers: { 'X-Cellar-Instance': 'window-0004' } }));
    await closeWindow(user, 'window-0004');
    await expectRefused(await asWindow(backend, 'window-0004', `/api/app-backend/${appId}/visit`));
  });

  it('answers the CORS preflight of a sandboxed page without credentials', async () => {
    const res = await fetch(`${box.url}/api/app/notifications`, {
      method: 'OPTIONS',
      headers: { Origin: 'null', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type, x-cellar-instance' },
    });
    expect(res.status).to.equal(204);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    expect(res.headers.get('access-control-allow-headers')).to.match(/Authorization/);
    expect(res.headers.get('access-control-allow-headers')).to.match(/X-Cellar-Instance/);
    expect(res.headers.get('access-control-allow-credentials')).to.equal(null);
  });

  it('notifies the user as app.message while the app holds the notifications permission', async () => {
    const host = await token(user);
    const sent = await asApp(host, 'POST', '/api/app/notifications', { title: 'Hello uma', body: 'from the app', level: 'success' });
    expect(sent.status).to.equal(201);
    expect(await sent.json()).to.deep.include({ type: 'app.message', appId, title: 'Hello uma', level: 'success' });
    expect((await user.api.notifications.list()).items[0]).to.deep.include({ type: 'app.message', appId, title: 'Hello uma' });
    const bad = await asApp(host, 'POST', '/api/app/notifications', { title: '', link: 'https://elsewhere.example' });
    expect(bad.status).to.equal(400);
    expect((await bad.json()).code).to.equal('notifications.message.invalid');
    await admin.api.apps.setPermissions({ params: { appId }, body: { permissions: { notifications: false } } });
    const refused = await asApp(host, 'POST', '/api/app/notifications', { title: 'Again' });
    expect(refused.status).to.equal(403);
    expect((await refused.json()).code).to.equal('auth.permission.denied');
    expect((await (await asApp(host, 'GET', '/api/app/me')).json()).permissions).to.deep.equal([]);
    await admin.api.apps.setPermissions({ params: { appId }, body: { permissions: { notifications: true } } });
  });

  it('stores the app’s log entries as app/<id>, debug ones only while its log level is debug', async () => {
    const host = await token(user);
    const entries = [
      { level: 'info', message: 'hello from the app' },
      { level: 'debug', message: 'details' },
    ];
    expect(await (await asApp(host, 'POST', '/api/app/logs', { entries })).json()).to.deep.equal({ accepted: 1, dropped: 0, debugIgnored: 1 });
    await admin.api.apps.setLogLevel({ params: { appId }, body: { level: 'debug' } });
    expect(await (await asApp(host, 'POST', '/api/app/logs', { entries })).json()).to.deep.equal({ accepted: 2, dropped: 0, debugIgnored: 0 });
    await admin.api.apps.setLogLevel({ params: { appId }, body: { level: 'info' } });
  });

  it('ends tokens after 5 minutes, at sign-out, when the grant goes, and when the app is disabled', async () => {
    const expiring = await token(user);
    offset += 5 * 60_000 + 1000;
    await expectRefused(await asApp(expiring, 'GET', '/api/app/me'));

    const other = await box.signIn('uma', 'uma-password-1');
    const ofOtherSession = await token(other);
    expect((await asApp(ofOtherSession, 'GET', '/api/app/me')).status).to.equal(200);
    await other.api.auth.logout();
    await expectRefused(await asApp(ofOtherSession, 'GET', '/api/app/me'));
    // The first session's tokens live on.
    expect((await asApp(await token(user), 'GET', '/api/app/me')).status).to.equal(200);

    const beforeRevoke = await token(user);
    await admin.api.apps.setGrants({ params: { appId }, body: { users: [], groups: [] } });
    await expectRefused(await asApp(beforeRevoke, 'GET', '/api/app/me'));
    await expectProblem(user.api.apps.issueToken({ params: { appId }, body: { kind: 'host', instanceId: 'window-0001' } }), 'app.app.not_found', 404);
    await admin.api.apps.setGrants({ params: { appId }, body: { users: [userId], groups: [] } });

    const beforeDisable = await token(user);
    const backendBeforeDisable = await token(user, 'backend');
    await admin.api.apps.update({ params: { appId }, body: { enabled: false } });
    await expectRefused(await asApp(beforeDisable, 'GET', '/api/app/me'));
    await expectRefused(await asWindow(backendBeforeDisable, 'window-0001', `/api/app-backend/${appId}/visit`));
    await admin.api.apps.update({ params: { appId }, body: { enabled: true } });
    // Ended for good: switching the app on again does not bring an old token back.
    await expectRefused(await asApp(beforeDisable, 'GET', '/api/app/me'));
  });

  it('serves an enabled app’s frontend sandboxed, and no file outside it', async () => {
    const page = await fetch(`${box.url}/frontends/${appId}/`);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.equal(readFileSync('examples/hello-app/frontend/index.html', 'utf8'));
    expect(page.headers.get('content-security-policy')).to.match(/sandbox allow-scripts/);
    expect(page.headers.get('content-security-policy')).to.not.match(/allow-same-origin/);
    expect((await fetch(`${box.url}/frontends/${appId}/app.js`)).headers.get('content-type')).to.match(/javascript/);
    for (const escape of ['..%2fmanifest.json', '..%2f..%2f..%2fcellar.sqlite']) {
      const res = await fetch(`${box.url}/frontends/${appId}/${escape}`);
      expect(res.status, escape).to.equal(404);
    }
    // The URL parser resolves these dot segments itself: the request leaves /frontends for the desktop page.
    const dots = await fetch(`${box.url}/frontends/${appId}/%2e%2e/%2e%2e/data`);
    expect(await dots.text()).to.equal('<!doctype html><title>desktop</title>');
    await admin.api.apps.update({ params: { appId }, body: { enabled: false } });
    expect((await fetch(`${box.url}/frontends/${appId}/`)).status).to.equal(404);
    await admin.api.apps.update({ params: { appId }, body: { enabled: true } });
  });

  it('answers bad frontend paths with problem details, and lists no apps at the prefix', async () => {
    const problem = async (route: string) => {
      const res = await fetch(`${box.url}${route}`);
      expect(res.headers.get('content-type'), route).to.match(/^application\/problem\+json/);
      const body = await res.text();
      // Nothing names an installed app the request did not name itself.
      if (!route.includes(appId)) expect(body, route).to.not.include('hello');
      return { status: res.status, code: (JSON.parse(body) as { code: string }).code };
    };
    // NUL, other control characters and malformed escapes are the client's fault.
    for (const route of [
      `/frontends/${appId}/%00`,
      `/frontends/${appId}/app.js%00.html`,
      `/frontends/${appId}/%01`,
      `/frontends/${appId}/a%7f`,
      `/frontends/${appId}/%ff`,
      `/frontends/${appId}/%`,
      `/frontends/${appId}/..%00/x`,
      '/frontends/%00/',
    ]) {
      expect(await problem(route), route).to.deep.equal({ status: 400, code: 'request.params.invalid' });
    }
    // The prefix itself is no listing and no desktop page; a folder or an escaped slash is no file.
    for (const route of ['/frontends', '/frontends/', '/frontends/?format=json', `/frontends/${appId}/missing/`, `/frontends/${appId}/a%2f..%2f..%2fdata`]) {
      expect(await problem(route), route).to.deep.equal({ status: 404, code: 'request.route.not_found' });
    }
    expect(await problem('/frontends/..%5c..%5cetc/')).to.deep.equal({ status: 404, code: 'app.app.not_found' });
    // The app's own files still serve.
    expect((await fetch(`${box.url}/frontends/${appId}/style.css`)).status).to.equal(200);
  });

  it('ends the app’s tokens when it is uninstalled', async () => {
    const host = await token(user);
    const job = await finished(admin, (await admin.api.apps.uninstall({ params: { appId }, query: { data: 'delete' } })).id);
    expect(job.state).to.equal('succeeded');
    await expectRefused(await asApp(host, 'GET', '/api/app/me'));
  });
});
