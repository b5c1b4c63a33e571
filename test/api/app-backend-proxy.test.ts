import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { AppManifest } from '../../shared/src/api/apps/app-manifest.ts';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { eventually } from '../helpers/desktop.ts';
import { finished } from '../helpers/file-operations.ts';
import { tgzOf } from '../helpers/tar-builder.ts';

// Real backends of a development daemon (run as the daemon's own user), reached through the box:
// which headers of the window reach a backend, which of a backend's answer reach the window, and
// what the box does when a backend breaks the place of its own socket.
const example = JSON.parse(readFileSync('examples/hello-app/manifest.json', 'utf8')) as AppManifest;

/** Listens where the box says: the socket it hands over (fd 3), or the path older boxes named. */
const listen = `const where = process.env.LISTEN_FDS === '1' ? { fd: 3 } : process.env.CELLAR_BACKEND_SOCKET;`;

/** Answers /echo with the header names and values it got, and /answer with a spread of headers a backend might send. */
const echoBackend = `import { createServer } from 'node:http';
${listen}
createServer((req, res) => {
  const url = new URL(req.url, 'http://backend');
  if (url.pathname === '/echo') {
    const pairs = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
    res.setHeader('Content-Type', 'application/json');
    return res.end(JSON.stringify(pairs));
  }
  if (url.pathname.startsWith('/redirect')) {
    res.writeHead(302, { Location: url.searchParams.get('to') });
    return res.end();
  }
  res.writeHead(200, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'private, max-age=60',
    ETag: '"v1"',
    'Last-Modified': 'Sat, 28 Nov 2026 10:00:00 GMT',
    'Content-Disposition': 'inline; filename="hello.txt"',
    Vary: 'Accept-Language',
    'Content-Security-Policy': "default-src *; script-src 'unsafe-inline' *",
    'Clear-Site-Data': '"cookies", "storage"',
    'Access-Control-Allow-Origin': 'https://evil.example',
    'Access-Control-Allow-Credentials': 'true',
    'Strict-Transport-Security': 'max-age=0',
    'Set-Cookie': 'cellar_session=planted; Path=/',
    'X-Frame-Options': 'ALLOWALL',
    'Referrer-Policy': 'unsafe-url',
  });
  res.end('hello');
}).listen(where);
`;

/**
 * Finds the path of its own socket (the one the box named, or the one the box handed over, by its
 * inode in /proc/net/unix: as the daemon's own user it may reach it), puts a folder there and exits.
 */
const breakerBackend = `import { fstatSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
let target = process.env.CELLAR_BACKEND_SOCKET;
if (!target && process.env.LISTEN_FDS === '1') {
  const inode = String(fstatSync(3).ino);
  const row = readFileSync('/proc/net/unix', 'utf8').split('\\n').map((l) => l.trim().split(/\\s+/)).find((f) => f[6] === inode);
  target = row?.[7];
}
if (!target) {
  console.error('no socket path found');
  process.exit(2);
}
rmSync(target, { force: true });
mkdirSync(target);
console.log('made a folder at ' + target);
process.exit(1);
`;

const appWith = (id: string, program: string) =>
  tgzOf([
    { name: 'manifest.json', body: JSON.stringify({ ...example, id, storage: [], backend: { command: ['node', 'server.mjs'], listen: 'unix-socket' } }) },
    { name: 'icon.svg', body: readFileSync('examples/hello-app/icon.svg') },
    { name: 'frontend/', type: 'dir' },
    { name: 'frontend/index.html', body: '<!doctype html><title>test</title>' },
    { name: 'backend/', type: 'dir' },
    { name: 'backend/server.mjs', body: program },
  ]);

describe('the way to app backends', function () {
  this.timeout(60_000);
  const echoId = 'org.example.echo';
  let box: TestDaemon;
  let admin: TestClient;

  const install = async (body: Buffer) => {
    const preview = await admin.api.apps.uploadPackage({ body });
    const job = await finished(admin, (await admin.api.apps.install({ params: { packageId: preview.packageId }, body: { pool: 'tank' } })).id);
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
  };
  /** A window's request to its app's backend, with its backend token and window id. */
  const toBackend = async (appId: string, route: string, init: { headers?: Record<string, string>; redirect?: RequestRedirect } = {}) => {
    const { token } = await admin.api.apps.issueToken({ params: { appId }, body: { kind: 'backend', instanceId: 'window-0001' } });
    return fetch(`${box.url}/api/app-backend/${appId}${route}`, {
      headers: { Authorization: `Bearer ${token}`, 'X-Cellar-Instance': 'window-0001', Origin: 'null', ...init.headers },
      redirect: init.redirect ?? 'follow',
    });
  };
  const answering = (appId: string) =>
    eventually(
      async () => (await toBackend(appId, '/echo')).status,
      (status) => status === 200,
      `the backend of ${appId} answering`,
    );

  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    await install(appWith(echoId, echoBackend));
    await answering(echoId);
  });
  after(() => box?.close());

  it('passes the box’s own X-Cellar-* headers only: none of the page’s, in any spelling (X_Cellar_User_Id, x-cellar_username, ...)', async () => {
    const res = await toBackend(echoId, '/echo', {
      headers: {
        'X-Cellar-User-Id': '999',
        X_Cellar_User_Id: '999',
        'x_cellar-username': 'mallory',
        'X-CELLAR_LANGUAGE': 'xx',
        x_cellar_instance: 'window-9999',
        'X-Cellar-Something-New': 'planted',
        'X-Other': 'kept',
      },
    });
    expect(res.status).to.equal(200);
    const pairs = (await res.json()) as [string, string][];
    const cellar = pairs.filter(([name]) => /^x[-_]cellar[-_]/i.test(name)).map(([name, value]) => [name.toLowerCase(), value]);
    expect(cellar.sort()).to.deep.equal(
      [
        ['x-cellar-user-id', String(admin.user?.id)],
        ['x-cellar-username', 'admin'],
        ['x-cellar-language', 'en'],
        ['x-cellar-instance', 'window-0001'],
      ].sort(),
    );
    expect(pairs.find(([name]) => name.toLowerCase() === 'x-other')?.[1]).to.equal('kept');
  });

  it('keeps of a backend’s answer its content and caching headers, never the security headers or cookies of the box’s origin', async () => {
    const res = await toBackend(echoId, '/answer');
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal('hello');
    expect(res.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    expect(res.headers.get('cache-control')).to.equal('private, max-age=60');
    expect(res.headers.get('etag')).to.equal('"v1"');
    expect(res.headers.get('last-modified')).to.equal('Sat, 28 Nov 2026 10:00:00 GMT');
    expect(res.headers.get('content-disposition')).to.equal('inline; filename="hello.txt"');
    expect(res.headers.get('vary')).to.include('Accept-Language');
    expect(res.headers.get('clear-site-data')).to.equal(null);
    expect(res.headers.get('set-cookie')).to.equal(null);
    expect(res.headers.get('access-control-allow-credentials')).to.equal(null);
    // The box's own answers stand where it has them: CORS for sandboxed pages, its own policies.
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    expect(res.headers.get('content-security-policy') ?? '').to.not.include('unsafe-inline');
    expect(res.headers.get('strict-transport-security') ?? '').to.not.equal('max-age=0');
    expect(res.headers.get('x-frame-options') ?? '').to.not.equal('ALLOWALL');
    expect(res.headers.get('referrer-policy') ?? '').to.not.equal('unsafe-url');
  });

  it('keeps a redirect within the app’s backend, rewritten to the box’s address of it, and drops one to anywhere else', async () => {
    const location = async (to: string) =>
      (await toBackend(echoId, `/redirect/here?to=${encodeURIComponent(to)}`, { redirect: 'manual' })).headers.get('location');
    expect(await location('/done?x=1')).to.equal(`/api/app-backend/${echoId}/done?x=1`);
    expect(await location('next')).to.equal(`/api/app-backend/${echoId}/redirect/next`);
    expect(await location('../../../../api/users')).to.equal(`/api/app-backend/${echoId}/api/users`);
    expect(await location('//evil.example/x')).to.equal(null);
    expect(await location('https://evil.example/')).to.equal(null);
    expect(await location('/\\evil.example')).to.equal(null);
  });

  it('marks a backend that puts a folder where its socket goes failed, and lives on', async () => {
    const breakerId = 'org.example.breaker';
    // This daemon runs inside the test process: a rejection nobody caught, which would end a real daemon, is caught here.
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    let messages: string[];
    try {
      await install(appWith(breakerId, breakerBackend));
      messages = await eventually(
        async () => (await admin.api.logs.list({ query: { source: [`app/${breakerId}`] } })).items.map((e) => e.message),
        (found) => found.some((m) => m.startsWith('backend failed')) || rejections.length > 0,
        'the breaker marked failed in its log',
      );
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections.map(String)).to.deep.equal([]);
    expect(messages.some((m) => m.startsWith('backend failed'))).to.equal(true);
    expect(messages.some((m) => m.startsWith('made a folder at '))).to.equal(true);
    const res = await toBackend(breakerId, '/anything');
    expect(res.status).to.equal(503);
    expect((await res.json()).code).to.equal('app.backend.unavailable');
    // The daemon and the other app's backend are still there.
    expect((await admin.api.apps.list()).apps.map((a) => a.id)).to.include(breakerId);
    expect((await toBackend(echoId, '/echo')).status).to.equal(200);
  });
});
