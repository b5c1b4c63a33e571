import { expect } from 'chai';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createTcpServer, connect, type AddressInfo, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ProxyHostRequest } from '../../shared/src/api/proxy/proxy.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { handshake } from '../helpers/https-client.ts';
import { opensslVerify } from '../helpers/openssl.ts';
import { insertUser } from '../helpers/users.ts';

interface CurlAnswer {
  /** HTTP/1.1 or HTTP/2, as the status line says. */
  version: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A free loopback TCP port (taken and given back). */
async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function run(argv: string[]): string {
  const result = spawnSync(argv[0] as string, argv.slice(1), { encoding: 'utf8', timeout: 20_000 });
  if (result.status !== 0) throw new Error(`${argv.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/**
 * The reverse proxy with the real nginx on loopback ports, curl as the client (`--resolve`
 * sends the host names to 127.0.0.1), nftables inside a network namespace this test makes.
 */
describe('system: reverse proxy with nginx and nftables', function () {
  this.timeout(180_000);
  const netns = `cellar-proxy-${process.pid}`;
  const work = mkdtempSync(path.join(tmpdir(), 'cellar-proxy-system-'));
  let box: TestDaemon;
  let admin: TestClient;
  let ports: { http: number; https: number };
  let target: Server;
  let targetPort: number;
  let rootFile: string;
  let now = Date.now();
  let alice: number;

  // The target and the daemon live in this process: curl runs asynchronously so they can answer.
  const curl = async (url: string, extra: string[] = []): Promise<CurlAnswer> => {
    const { hostname, port, protocol } = new URL(url);
    const resolvePort = port || (protocol === 'https:' ? '443' : '80');
    const argv = ['-sS', '-i', '--max-time', '10', '--cacert', rootFile, '--resolve', `${hostname}:${resolvePort}:127.0.0.1`, ...extra, url];
    const { stdout: out } = await promisify(execFile)('curl', argv, { encoding: 'utf8' });
    const [head = '', ...rest] = out.split('\r\n\r\n');
    const [statusLine = '', ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    return { version: statusLine.split(' ')[0] ?? '', status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
  };
  const https = (name: string, rest = '/') => `https://${name}:${ports.https}${rest}`;
  const http = (name: string, rest = '/') => `http://${name}:${ports.http}${rest}`;
  const host = (domains: string[], extra: Partial<ProxyHostRequest> = {}): ProxyHostRequest => ({
    domains,
    target: { scheme: 'http', host: '127.0.0.1', port: targetPort },
    tls: { mode: 'authority' },
    ...extra,
  });
  const hostId = async (domain: string) => (await admin.api.proxy.settings()).hosts.find((h) => h.domains.includes(domain))?.id ?? 0;

  before(async () => {
    expect(process.getuid?.(), 'system tests run as root').to.equal(0);
    run(['ip', 'netns', 'add', netns]);
    ports = { http: await freePort(), https: await freePort() };
    target = createHttpServer((req, res) => {
      res.setHeader('X-Target-Cookie', req.headers.cookie ?? '(none)');
      res.end(`target saw ${req.headers.host} ${req.url}`);
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetPort = (target.address() as AddressInfo).port;
    box = await startTestDaemon({}, { clock: { now: () => now }, proxy: { ports, address: '127.0.0.1', netns, firewall: true } });
    admin = await box.signIn();
    alice = await insertUser(box, 'alice', 'alice password 1');
    await insertUser(box, 'bob', 'bob password 1');
    rootFile = path.join(work, 'root.pem');
    writeFileSync(rootFile, await (await fetch(`${box.url}/api/system/tls/root-ca.crt`)).text());
  });
  after(async () => {
    await box?.close();
    target?.close();
    spawnSync('ip', ['netns', 'delete', netns]);
    rmSync(work, { recursive: true, force: true });
  });

  it("forwards a proxy host whose certificate chains to the box's root, and redirects to HTTPS", async () => {
    const settings = await admin.api.proxy.createHost({ body: host(['cam.local'], { forceHttps: true, hsts: true, http2: true }) });
    expect(settings.nginx.state).to.equal('running');
    const answer = await curl(https('cam.local', '/live?x=1'));
    expect(answer.status).to.equal(200);
    expect(answer.body).to.equal(`target saw cam.local /live?x=1`);
    expect(answer.version).to.equal('HTTP/2');
    expect(answer.headers['strict-transport-security']).to.equal('max-age=31536000');
    const served = run(['sh', '-c', `openssl s_client -connect 127.0.0.1:${ports.https} -servername cam.local -showcerts </dev/null 2>/dev/null`]);
    const certificates = served.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n/g) ?? [];
    expect(certificates.length).to.be.greaterThan(1);
    const verified = opensslVerify({
      root: readFileSync(rootFile, 'utf8'),
      intermediates: certificates.slice(1).join(''),
      leaf: certificates[0] ?? '',
      hostname: 'cam.local',
    });
    expect(verified.ok, verified.output).to.equal(true);
    // nginx terminates TLS with the daemon's own policy: no CBC or static RSA suite, ECDHE with AES-GCM accepted.
    for (const cipher of ['AES256-SHA', 'AES128-SHA256', 'ECDHE-RSA-AES256-SHA'])
      expect(await handshake({ port: ports.https, servername: 'cam.local' }, cipher, 'TLSv1.2'), cipher).to.equal('refused');
    expect(await handshake({ port: ports.https, servername: 'cam.local' }, 'ECDHE-RSA-AES128-GCM-SHA256', 'TLSv1.2')).to.deep.include({ protocol: 'TLSv1.2' });
    const plain = await curl(http('cam.local', '/live'));
    expect(plain.status).to.equal(301);
    expect(plain.headers.location).to.equal(https('cam.local', '/live'));
  });

  it('answers unknown names with the configured treatment', async () => {
    expect((await curl(http('nobody.local', '/a'))).headers.location).to.equal(`https://nobody.local:${new URL(box.url).port}/a`);
    await admin.api.proxy.setOptions({ body: { unknownNames: 'notFound', signInUrl: null } });
    expect((await curl(http('nobody.local'))).status).to.equal(404);
  });

  it('refuses a wrong Basic Auth password and keeps the old one across a PUT without it', async () => {
    await admin.api.proxy.createHost({ body: host(['basic.local'], { basicAuth: [{ username: 'carol', password: 'carol secret' }] }) });
    expect((await curl(https('basic.local'))).status).to.equal(401);
    expect((await curl(https('basic.local'), ['-u', 'carol:wrong'])).status).to.equal(401);
    expect((await curl(https('basic.local'), ['-u', 'carol:carol secret'])).status).to.equal(200);
    await admin.api.proxy.updateHost({ params: { id: await hostId('basic.local') }, body: host(['basic.local'], { basicAuth: [{ username: 'carol' }] }) });
    expect((await curl(https('basic.local'), ['-u', 'carol:carol secret'])).status).to.equal(200);
    expect((await curl(https('basic.local'), ['-u', 'carol:wrong'])).status).to.equal(401);
  });

  it('answers 429 with Retry-After to an address that guessed Basic Auth passwords, and lets the right one in from another', async () => {
    await admin.api.proxy.createHost({ body: host(['guard.local'], { basicAuth: [{ username: 'erin', password: 'erin secret' }] }) });
    for (let i = 0; i < 5; i++) expect((await curl(https('guard.local'), ['-u', `erin:guess ${i}`])).status).to.equal(401);
    // A forged X-Real-IP does not make the visitor someone else: nginx sets it from the connection.
    const held = await curl(https('guard.local'), ['-u', 'erin:erin secret', '-H', 'X-Real-IP: 192.0.2.77']);
    expect(held.status).to.equal(429);
    expect(Number(held.headers['retry-after'])).to.be.within(1, 30);
    expect(held.headers['www-authenticate']).to.equal(undefined);
    // Another loopback source address is another visitor.
    expect((await curl(https('guard.local'), ['-u', 'erin:erin secret', '--interface', '127.0.0.2'])).status).to.equal(200);
  });

  it('lets a visitor in to a sign-in-protected host only with a fresh ticket of a granted user', async () => {
    await admin.api.proxy.createHost({ body: host(['app.local'], { signIn: { enabled: true, userIds: [alice], groupIds: [] } }) });
    const refused = await curl(https('app.local', '/photos'));
    expect(refused.status).to.equal(302);
    expect(refused.headers.location).to.equal(`https://app.local:${new URL(box.url).port}/#proxy=https://app.local:${ports.https}/photos`);

    const aliceClient = await box.signIn('alice', 'alice password 1');
    const ticket = await aliceClient.api.proxy.ticket({ body: { url: https('app.local', '/photos') } });
    const opened = await curl(ticket.url);
    expect(opened.status).to.equal(302);
    expect(opened.headers.location).to.equal('/photos');
    const cookie = (opened.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    expect(cookie).to.match(/^cellar_proxy=/);
    const inside = await curl(https('app.local', '/photos'), ['-H', `Cookie: ${cookie}`]);
    expect(inside.status).to.equal(200);
    expect(inside.body).to.equal('target saw app.local /photos');
    // The box's cookie stays with nginx and the daemon; the target's own cookies reach it wherever it sits among them.
    expect(inside.headers['x-target-cookie']).to.equal('(none)');
    const among = async (header: string) => (await curl(https('app.local'), ['-H', `Cookie: ${header}`])).headers['x-target-cookie'];
    expect(await among(`theme=dark; ${cookie}; xcellar_proxy=keep; lang=de`)).to.equal('theme=dark; xcellar_proxy=keep; lang=de');
    expect(await among(`theme=dark;${cookie}`)).to.equal('theme=dark');
    expect(await among(`${cookie}; theme=dark`)).to.equal('theme=dark');
    expect((await curl(ticket.url)).status).to.equal(401);

    const late = await aliceClient.api.proxy.ticket({ body: { url: https('app.local') } });
    now += 31_000;
    expect((await curl(late.url)).status).to.equal(401);

    const bob = await box.signIn('bob', 'bob password 1');
    await expectProblem(bob.api.proxy.ticket({ body: { url: https('app.local') } }), 'proxy.access.denied', 403);
    // Taking the grant away shuts the cookie out at the next request.
    await admin.api.proxy.updateHost({
      params: { id: await hostId('app.local') },
      body: host(['app.local'], { signIn: { enabled: true, userIds: [], groupIds: [] } }),
    });
    expect((await curl(https('app.local', '/photos'), ['-H', `Cookie: ${cookie}`])).status).to.equal(403);
  });

  it("keeps the box's session and device cookies from every target, as a proxy host under the box's own name would get them", async () => {
    // The browser sends cookies by name, not port: a host under the box's name gets the box's own as they are.
    const session = /box\.sid=[^;]+/.exec(admin.cookieHeader())?.[0] ?? '';
    expect(session).to.have.length.greaterThan(20);
    const seen = async (header: string) => (await curl(https('cam.local'), ['-H', `Cookie: ${header}`])).headers['x-target-cookie'];
    expect(await seen(session)).to.equal('(none)');
    expect(await seen(`${session}; theme=dark`)).to.equal('theme=dark');
    expect(await seen(`theme=dark; ${session}; lang=de; box.device=v1.x; cellar_proxy=y`)).to.equal('theme=dark; lang=de');
    expect(await seen('box.sidecar=keep; xbox.sid=keep; box_sid=keep')).to.equal('box.sidecar=keep; xbox.sid=keep; box_sid=keep');
    // Sent twice (a target set one of the same name for a longer path): the target gets no cookies at all.
    expect(await seen(`box.sid=planted; theme=dark; ${session}`)).to.equal('(none)');
  });

  it('passes a WebSocket upgrade through to the target when the host allows it', async () => {
    const upgrades = createHttpServer();
    upgrades.on('upgrade', (_req, socket) => {
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      socket.pipe(socket);
    });
    await new Promise<void>((resolve) => upgrades.listen(0, '127.0.0.1', resolve));
    try {
      const port = (upgrades.address() as AddressInfo).port;
      await admin.api.proxy.createHost({
        body: host(['live.local'], { tls: { mode: 'none' }, websocket: true, target: { scheme: 'http', host: '127.0.0.1', port } }),
      });
      const echoed = await new Promise<string>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: ports.http, headers: { Host: 'live.local', Connection: 'Upgrade', Upgrade: 'websocket' } });
        req.on('upgrade', (_res, socket) => {
          socket.once('data', (data: Buffer) => (resolve(data.toString('utf8')), socket.destroy()));
          socket.write('frames both ways');
        });
        req.on('response', (res) => reject(new Error(`no upgrade: ${res.statusCode}`)));
        req.on('error', reject);
        req.end();
      });
      expect(echoed).to.equal('frames both ways');
    } finally {
      upgrades.closeAllConnections();
      upgrades.close();
    }
  });

  it('forwards a TCP stream and opens its port in nftables only while it exists', async () => {
    const echo: TcpServer = createTcpServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const streamPort = await freePort();
    try {
      const settings = await admin.api.proxy.createStream({
        body: { port: streamPort, protocols: ['tcp'], target: { host: '127.0.0.1', port: (echo.address() as AddressInfo).port } },
      });
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect(streamPort, '127.0.0.1', () => socket.write('ping through nginx'));
        socket.once('data', (data) => {
          resolve(data.toString('utf8'));
          socket.end();
        });
        socket.once('error', reject);
      });
      expect(reply).to.equal('ping through nginx');
      const table = run(['ip', 'netns', 'exec', netns, 'nft', 'list', 'table', 'inet', 'cellar_proxy']);
      expect(table).to.include(`tcp dport ${streamPort} accept`);
      await admin.api.proxy.removeStream({ params: { id: settings.streams[0]?.id ?? 0 } });
      const tables = run(['ip', 'netns', 'exec', netns, 'nft', 'list', 'tables']);
      expect(tables).not.to.include('cellar_proxy');
    } finally {
      echo.close();
    }
  });

  it('leaves the running nginx answering as before when nginx refuses a new configuration', async () => {
    await expectProblem(
      admin.api.proxy.createHost({ body: host(['broken.local'], { target: { scheme: 'http', host: 'no-such-target.invalid', port: 80 } }) }),
      'proxy.config.refused',
      422,
    );
    expect((await curl(https('cam.local', '/still'))).body).to.equal('target saw cam.local /still');
    expect((await admin.api.proxy.settings()).nginx.state).to.equal('running');
  });
});
