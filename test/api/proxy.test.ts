import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { ProxyHostRequest } from '../../shared/src/api/proxy/proxy.ts';
import { outsideCertificates, type OutsideCertificates } from '../helpers/certificates.ts';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { opensslVerify } from '../helpers/openssl.ts';
import { connectSocket } from '../helpers/socket.ts';
import { insertUser } from '../helpers/users.ts';

const host = (domains: string[], extra: Partial<ProxyHostRequest> = {}): ProxyHostRequest => ({
  domains,
  target: { scheme: 'http', host: '127.0.0.1', port: 9 },
  tls: { mode: 'none' },
  ...extra,
});

describe('proxy API: hosts, redirects, streams, options, check and tickets', function () {
  this.timeout(120_000);
  let box: TestDaemon;
  let admin: TestClient;
  let now = Date.now();
  let outside: OutsideCertificates;
  let target: Server;
  let alice: number;

  const conf = (name: string) => path.join(box.dataDir, 'proxy', 'conf', name);
  const authorize = (hostId: number, headers: Record<string, string> = {}) =>
    fetch(`${box.url}/api/proxy/authorize`, { headers: { 'X-Proxy-Host-Id': String(hostId), ...headers } });
  const redeem = (hostId: number, ticketUrl: string) =>
    fetch(`${box.url}/api/proxy/redeem?ticket=${new URL(ticketUrl).searchParams.get('ticket')}`, {
      headers: { 'X-Proxy-Host-Id': String(hostId), 'X-Forwarded-Proto': 'https' },
      redirect: 'manual',
    });

  before(async () => {
    outside = await outsideCertificates();
    box = await startTestDaemon({}, { clock: { now: () => now } });
    admin = await box.signIn();
    alice = await insertUser(box, 'alice', 'alice password 1');
    await insertUser(box, 'bob', 'bob password 1');
    target = createServer((req, res) => res.writeHead(204, { 'X-Host': req.headers.host ?? '' }).end());
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    target.close();
    await box.close();
  });

  it('refuses the unauthenticated and the non-administrator', async () => {
    await expectProblem(box.client().api.proxy.settings(), 'auth.session.required', 401);
    await expectProblem(box.client().api.proxy.ticket({ body: { url: 'https://cam.local/' } }), 'auth.session.required', 401);
    const bob = await box.signIn('bob', 'bob password 1');
    await expectProblem(bob.api.proxy.settings(), 'auth.permission.denied', 403);
    await expectProblem(bob.api.proxy.createHost({ body: host(['x.local']) }), 'auth.permission.denied', 403);
  });

  it('starts with no hosts, unknown names redirected to the web interface and nginx validated but not run', async () => {
    const settings = await admin.api.proxy.settings();
    expect(settings).to.deep.include({ unknownNames: 'redirect', signInUrl: null, hosts: [], redirects: [], streams: [] });
    expect(settings.nginx).to.deep.equal({ state: 'stopped', package: null });
    expect(settings.ports).to.deep.equal({ http: 8080, https: 8443 });
  });

  it("tells an open proxy window (topic proxy) of another administrator's change, and refuses the topic to a user", async () => {
    await insertUser(box, 'carol', 'carol password 1', { admin: true });
    const watcher = await connectSocket(box.url, await box.signIn('carol', 'carol password 1'));
    const plain = await connectSocket(box.url, await box.signIn('bob', 'bob password 1'));
    try {
      const ack = await watcher.subscribe('proxy');
      expect(ack).to.deep.include({ ok: true });
      expect((ack as { snapshot: { streams: unknown[] } }).snapshot.streams).to.deep.equal((await admin.api.proxy.settings()).streams);
      const refused = await plain.subscribe('proxy');
      expect(refused).to.deep.include({ ok: false });
      expect((refused as { problem: { code: string } }).problem.code).to.equal('auth.permission.denied');
      const next = watcher.nextEvent('proxy', 10_000);
      const settings = await admin.api.proxy.createStream({ body: { port: 2299, protocols: ['udp'], target: { host: '127.0.0.1', port: 53 } } });
      const event = await next;
      expect(event.type).to.equal('changed');
      expect(event.data).to.deep.equal(settings);
      const removed = watcher.nextEvent('proxy', 10_000);
      await admin.api.proxy.removeStream({ params: { id: settings.streams.find((s) => s.port === 2299)?.id ?? 0 } });
      expect(((await removed).data as { streams: unknown[] }).streams.some((s) => (s as { port: number }).port === 2299)).to.equal(false);
    } finally {
      watcher.close();
      plain.close();
    }
  });

  it("adds a host with a certificate of the box's authority that chains to the root", async () => {
    const settings = await admin.api.proxy.createHost({ body: host(['cam.local'], { tls: { mode: 'authority' }, forceHttps: true, hsts: true }) });
    const [added] = settings.hosts;
    expect(added?.tls.certificate?.names).to.deep.equal(['cam.local']);
    const root = await (await fetch(`${box.url}/api/system/tls/root-ca.crt`)).text();
    const chain = readFileSync(conf(`host-${added?.id}.crt`), 'utf8');
    const [leaf, ...rest] = chain.split(/(?<=-----END CERTIFICATE-----\n?)/);
    const verified = opensslVerify({ root, intermediates: rest.join(''), leaf: leaf ?? '', hostname: 'cam.local' });
    expect(verified.ok, verified.output).to.equal(true);
    const nginxConf = readFileSync(conf('nginx.conf'), 'utf8');
    expect(nginxConf).to.include('server_name cam.local;').and.include('Strict-Transport-Security').and.include('return 301 https://$host:8443');
  });

  it("gives the default server the box's new certificate when the box's names change", async () => {
    const before = readFileSync(conf('box.crt'), 'utf8');
    await admin.api.tls.setNames({ body: { names: ['nas-extra.local'] } });
    // The proxy applies it once the change has answered.
    let after = before;
    for (let i = 0; i < 100 && after === before; i++) {
      await delay(50);
      after = readFileSync(conf('box.crt'), 'utf8');
    }
    expect(new X509Certificate(after).subjectAltName).to.include('DNS:nas-extra.local');
  });

  it("reissues the hosts' certificates when the box's authority is replaced", async () => {
    const id = (await admin.api.proxy.settings()).hosts.find((h) => h.domains[0] === 'cam.local')?.id;
    const before = readFileSync(conf(`host-${id}.crt`), 'utf8');
    await admin.api.tls.createAuthority({ body: {} });
    const root = await (await fetch(`${box.url}/api/system/tls/root-ca.crt`)).text();
    let after = before;
    for (let i = 0; i < 200 && after === before; i++) {
      await delay(50);
      after = readFileSync(conf(`host-${id}.crt`), 'utf8');
    }
    const [leaf, ...rest] = after.split(/(?<=-----END CERTIFICATE-----\n?)/);
    const verified = opensslVerify({ root, intermediates: rest.join(''), leaf: leaf ?? '', hostname: 'cam.local' });
    expect(verified.ok, verified.output).to.equal(true);
  });

  it('refuses names outside the scope, names taken, and an uploaded choice without a certificate', async () => {
    await expectProblem(admin.api.proxy.createHost({ body: host(['cam.example.com'], { tls: { mode: 'authority' } }) }), 'tls.name.out_of_scope', 422);
    await expectProblem(admin.api.proxy.createHost({ body: host(['cam.local']) }), 'proxy.domain.taken', 409);
    await expectProblem(admin.api.proxy.createHost({ body: host(['up.local'], { tls: { mode: 'uploaded' } }) }), 'proxy.certificate.missing', 422);
    await expectProblem(admin.api.proxy.createRedirect({ body: { domains: ['cam.local'], destination: 'https://x.local/' } }), 'proxy.domain.taken', 409);
  });

  it('keeps an uploaded certificate across a PUT without one, and checks a new one', async () => {
    const server = await outside.server({ names: ['media.home.arpa'] });
    const upload = { mode: 'uploaded' as const, certificate: server.chain, privateKey: server.privateKeyPem };
    const created = await admin.api.proxy.createHost({ body: host(['media.home.arpa'], { tls: upload }) });
    const id = created.hosts.find((h) => h.domains[0] === 'media.home.arpa')?.id ?? 0;
    const updated = await admin.api.proxy.updateHost({ params: { id }, body: host(['media.home.arpa'], { tls: { mode: 'uploaded' }, http2: true }) });
    const kept = updated.hosts.find((h) => h.id === id);
    expect(kept?.http2).to.equal(true);
    expect(kept?.tls.certificate?.names).to.deep.equal(['media.home.arpa']);
    const other = await outside.server({ names: ['other.home.arpa'] });
    const mismatched = { mode: 'uploaded' as const, certificate: server.chain, privateKey: other.privateKeyPem };
    await expectProblem(admin.api.proxy.updateHost({ params: { id }, body: host(['media.home.arpa'], { tls: mismatched }) }), 'tls.key.mismatch', 422);
    // Deleting the host takes its certificate along and makes its name unknown.
    const removed = await admin.api.proxy.removeHost({ params: { id } });
    expect(removed.hosts.map((h) => h.id)).not.to.include(id);
    expect(existsSync(conf(`host-${id}.crt`))).to.equal(false);
    expect(readFileSync(conf('nginx.conf'), 'utf8')).not.to.include('media.home.arpa');
    await expectProblem(admin.api.proxy.removeHost({ params: { id } }), 'proxy.host.not_found', 404);
  });

  it("answers a problem with nginx's message when nginx refuses, and keeps the running configuration", async () => {
    const before = readFileSync(conf('nginx.conf'), 'utf8');
    const refused = await expectProblem(
      admin.api.proxy.createHost({ body: host(['broken.local'], { target: { scheme: 'http', host: 'no-such-target.invalid', port: 80 } }) }),
      'proxy.config.refused',
      422,
    );
    expect(String(refused.problem.params?.message)).to.include('host not found');
    expect(readFileSync(conf('nginx.conf'), 'utf8')).to.equal(before);
    expect((await admin.api.proxy.settings()).hosts.map((h) => h.domains[0])).not.to.include('broken.local');
  });

  it('keeps Basic Auth passwords across a PUT without one and refuses a new user without one', async () => {
    const basic = { basicAuth: [{ username: 'carol', password: 'carol secret' }] };
    const created = await admin.api.proxy.createHost({ body: host(['basic.local'], basic) });
    const id = created.hosts.find((h) => h.domains[0] === 'basic.local')?.id ?? 0;
    expect(created.hosts.find((h) => h.id === id)?.basicAuth).to.deep.equal([{ username: 'carol' }]);
    const auth = (user: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
    expect((await authorize(id, auth('carol', 'carol secret'))).status).to.equal(204);
    await admin.api.proxy.updateHost({ params: { id }, body: host(['basic.local'], { basicAuth: [{ username: 'carol' }], websocket: true }) });
    expect((await authorize(id, auth('carol', 'carol secret'))).status).to.equal(204);
    const wrong = await authorize(id, auth('carol', 'wrong'));
    expect(wrong.status).to.equal(401);
    expect(wrong.headers.get('x-cellar-auth')).to.equal('basic');
    expect((await wrong.json()).code).to.equal('auth.credentials.invalid');
    await expectProblem(
      admin.api.proxy.updateHost({ params: { id }, body: host(['basic.local'], { basicAuth: [{ username: 'carol' }, { username: 'dave' }] }) }),
      'proxy.user.password_missing',
      422,
    );
  });

  it('throttles wrong Basic Auth passwords per host and visitor address, and lets the right one in from elsewhere', async () => {
    const created = await admin.api.proxy.createHost({ body: host(['guarded.local'], { basicAuth: [{ username: 'erin', password: 'erin secret' }] }) });
    const id = created.hosts.find((h) => h.domains[0] === 'guarded.local')?.id ?? 0;
    // As nginx asks: the visitor's address with the key the daemon gave nginx in its configuration.
    const key = /proxy_set_header X-Proxy-Key ([\w-]+);/.exec(readFileSync(conf('nginx.conf'), 'utf8'))?.[1] ?? '';
    expect(key).to.have.length.greaterThan(40);
    const from = (address: string, password: string) =>
      authorize(id, { 'X-Real-IP': address, 'X-Proxy-Key': key, Authorization: `Basic ${Buffer.from(`erin:${password}`).toString('base64')}` });
    for (let i = 0; i < 5; i++) expect((await from('192.0.2.10', `guess ${i}`)).status).to.equal(401);
    const held = await from('192.0.2.10', 'erin secret');
    expect(held.status).to.equal(401);
    expect(held.headers.get('x-cellar-auth')).to.equal('throttled');
    expect(Number(held.headers.get('retry-after'))).to.be.within(1, 30);
    expect((await held.json()).code).to.equal('proxy.basic.throttled');
    expect((await from('192.0.2.11', 'erin secret')).status).to.equal(204);
    // The lock ends with its time.
    now += 31_000;
    expect((await from('192.0.2.10', 'erin secret')).status).to.equal(204);
    expect(readFileSync(conf('nginx.conf'), 'utf8'))
      .to.include('proxy_set_header X-Real-IP $remote_addr;')
      .and.include('return 429;');
  });

  it("counts a local process's Basic Auth guesses under its own address, whatever X-Real-IP or X-Forwarded-For it names", async () => {
    const created = await admin.api.proxy.createHost({ body: host(['forged.local'], { basicAuth: [{ username: 'erin', password: 'erin secret' }] }) });
    const id = created.hosts.find((h) => h.domains[0] === 'forged.local')?.id ?? 0;
    const client = box.client();
    const guess = (password: string, forged: Record<string, string>) =>
      client.request('GET', '/api/proxy/authorize', {
        headers: { 'X-Proxy-Host-Id': String(id), Authorization: `Basic ${Buffer.from(`erin:${password}`).toString('base64')}`, ...forged },
        from: '127.0.0.21',
      });
    // Each guess names another address, with a made-up key or none: all five count for 127.0.0.21.
    for (let i = 0; i < 5; i++) {
      const named: Record<string, string>[] = [
        { 'X-Real-IP': `192.0.2.${i}` },
        { 'X-Real-IP': `192.0.2.${i}`, 'X-Proxy-Key': 'guessed' },
        { 'X-Forwarded-For': `192.0.2.${i}` },
      ];
      const forged = named[i % 3]!;
      expect((await guess(`guess ${i}`, forged)).status).to.equal(401);
    }
    const held = await guess('erin secret', { 'X-Real-IP': '192.0.2.99' });
    expect(held.headers.get('x-cellar-auth')).to.equal('throttled');
    // Another address is not held by that one's guesses.
    const other = await client.request('GET', '/api/proxy/authorize', {
      headers: { 'X-Proxy-Host-Id': String(id), Authorization: `Basic ${Buffer.from('erin:erin secret').toString('base64')}` },
      from: '127.0.0.22',
    });
    expect(other.status).to.equal(204);
    now += 31_000;
  });

  it('checks a host target with one request and says when it does not answer', async () => {
    const port = (target.address() as AddressInfo).port;
    const created = await admin.api.proxy.createHost({ body: host(['check.local'], { target: { scheme: 'http', host: '127.0.0.1', port } }) });
    const id = created.hosts.find((h) => h.domains[0] === 'check.local')?.id ?? 0;
    const up = await admin.api.proxy.checkHost({ params: { id } });
    expect(up).to.include({ reachable: true, status: 204, error: null, certificateProblem: null });
    target.close();
    const down = await admin.api.proxy.checkHost({ params: { id } });
    expect(down.reachable).to.equal(false);
    expect(down.error).to.match(/ECONNREFUSED/);
    await expectProblem(admin.api.proxy.checkHost({ params: { id: 9999 } }), 'proxy.host.not_found', 404);
  });

  it('keeps redirects, streams and options, refusing ports that are taken', async () => {
    let settings = await admin.api.proxy.createRedirect({ body: { domains: ['old.local'], destination: 'https://new.local/', status: 308, https: true } });
    const redirect = settings.redirects[0];
    expect(redirect).to.deep.include({ domains: ['old.local'], status: 308, preservePath: true, https: true });
    expect(readFileSync(conf('nginx.conf'), 'utf8')).to.include('return 308 "https://new.local/$request_uri";');
    settings = await admin.api.proxy.updateRedirect({
      params: { id: redirect?.id ?? 0 },
      body: { domains: ['old.local'], destination: 'http://new.local', preservePath: false },
    });
    expect(settings.redirects[0]).to.deep.include({ status: 301, https: false });
    await admin.api.proxy.removeRedirect({ params: { id: redirect?.id ?? 0 } });
    await expectProblem(admin.api.proxy.removeRedirect({ params: { id: redirect?.id ?? 0 } }), 'proxy.redirect.not_found', 404);

    settings = await admin.api.proxy.createStream({ body: { port: 2222, protocols: ['tcp', 'udp'], target: { host: '127.0.0.1', port: 22 } } });
    const stream = settings.streams[0];
    expect(stream).to.deep.include({ port: 2222, protocols: ['tcp', 'udp'], enabled: true });
    expect(readFileSync(conf('nginx.conf'), 'utf8'))
      .to.include('listen 2222 udp;')
      .and.include('load_module');
    await expectProblem(
      admin.api.proxy.createStream({ body: { port: 2222, protocols: ['udp'], target: { host: '10.0.0.2', port: 53 } } }),
      'proxy.port.taken',
      409,
    );
    await expectProblem(
      admin.api.proxy.createStream({ body: { port: 8443, protocols: ['tcp'], target: { host: '10.0.0.2', port: 53 } } }),
      'proxy.port.taken',
      409,
    );
    await admin.api.proxy.updateStream({ params: { id: stream?.id ?? 0 }, body: { port: 2223, protocols: ['tcp'], target: { host: '127.0.0.1', port: 22 } } });
    settings = await admin.api.proxy.removeStream({ params: { id: stream?.id ?? 0 } });
    expect(settings.streams).to.deep.equal([]);
    await expectProblem(admin.api.proxy.removeStream({ params: { id: stream?.id ?? 0 } }), 'proxy.stream.not_found', 404);

    settings = await admin.api.proxy.setOptions({ body: { unknownNames: 'notFound', signInUrl: 'https://nas.local:7484/' } });
    expect(settings).to.include({ unknownNames: 'notFound', signInUrl: 'https://nas.local:7484/' });
    expect(readFileSync(conf('nginx.conf'), 'utf8')).to.include('return 404;');
  });

  it('refuses addresses that would reach into the nginx configuration', async () => {
    const bad = await admin.request('POST', '/api/system/proxy/redirects', { body: { domains: ['x.local'], destination: 'https://a.local/$host"; }' } });
    expect(bad.status).to.equal(400);
    const badName = await admin.request('POST', '/api/system/proxy/hosts', { body: host(['a.local; include /etc/passwd']) });
    expect(badName.status).to.equal(400);
  });

  describe('sign-in-protected hosts', () => {
    let hostId: number;
    let groupId: number;

    before(async () => {
      const group = await admin.api.groups.create({ body: { name: 'viewers' } });
      groupId = group.id;
      const settings = await admin.api.proxy.createHost({
        body: host(['app.local'], { tls: { mode: 'authority' }, signIn: { enabled: true, userIds: [alice], groupIds: [] } }),
      });
      hostId = settings.hosts.find((h) => h.domains[0] === 'app.local')?.id ?? 0;
    });

    it('sends a visitor without the cookie to the sign-in', async () => {
      const answer = await authorize(hostId);
      expect(answer.status).to.equal(401);
      expect(answer.headers.get('x-cellar-auth')).to.equal('signin');
      expect(readFileSync(conf('nginx.conf'), 'utf8')).to.include('auth_request /.cellar/auth;');
    });

    it('turns a ticket into a cookie for that host once, and refuses it after 30 seconds', async () => {
      const aliceClient = await box.signIn('alice', 'alice password 1');
      const ticket = await aliceClient.api.proxy.ticket({ body: { url: 'https://app.local:8443/photos?album=1' } });
      expect(ticket.url).to.match(/^https:\/\/app\.local:8443\/\.cellar\/ticket\?ticket=[\w-]+$/);
      // A ticket opens only the host it was made for, and is gone after one try.
      const elsewhere = await redeem(hostId + 1000, ticket.url);
      expect(elsewhere.status).to.equal(401);
      expect((await redeem(hostId, ticket.url)).status).to.equal(401);
      const fresh = await aliceClient.api.proxy.ticket({ body: { url: 'https://app.local:8443/photos?album=1' } });
      const redeemed = await redeem(hostId, fresh.url);
      expect(redeemed.status).to.equal(302);
      expect(redeemed.headers.get('location')).to.equal('/photos?album=1');
      const cookie = redeemed.headers.get('set-cookie') ?? '';
      expect(cookie).to.match(/^cellar_proxy=[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
      expect((await authorize(hostId, { Cookie: cookie.split(';')[0] ?? '' })).status).to.equal(204);
      expect((await redeem(hostId, fresh.url)).status).to.equal(401);

      const late = await aliceClient.api.proxy.ticket({ body: { url: 'https://app.local/' } });
      now += 31_000;
      const expired = await redeem(hostId, late.url);
      expect(expired.status).to.equal(401);
      expect((await expired.json()).code).to.equal('proxy.ticket.invalid');

      // Signing out of the box ends the host's cookie.
      await aliceClient.api.auth.logout();
      expect((await authorize(hostId, { Cookie: cookie.split(';')[0] ?? '' })).status).to.equal(401);
    });

    it("sends the ticket only to the host's own scheme and the proxy's own port, whatever the link names", async () => {
      const aliceClient = await box.signIn('alice', 'alice password 1');
      // The host has a certificate: https on the proxy's HTTPS port (8443 in development), never the link's http or 9999.
      for (const url of ['http://app.local:9999/photos', 'https://app.local:9999/photos', 'http://APP.local/photos']) {
        const ticket = await aliceClient.api.proxy.ticket({ body: { url } });
        expect(ticket.url, url).to.match(/^https:\/\/app\.local:8443\/\.cellar\/ticket\?ticket=[\w-]+$/);
      }
      // A host without a certificate is reached over http on the proxy's HTTP port.
      const plain = await admin.api.proxy.createHost({ body: host(['plain.local'], { signIn: { enabled: true, userIds: [alice], groupIds: [] } }) });
      const plainId = plain.hosts.find((h) => h.domains[0] === 'plain.local')?.id ?? 0;
      const ticket = await aliceClient.api.proxy.ticket({ body: { url: 'https://plain.local:9999/x' } });
      expect(ticket.url).to.match(/^http:\/\/plain\.local:8080\/\.cellar\/ticket\?ticket=[\w-]+$/);
      expect((await redeem(plainId, ticket.url)).headers.get('location')).to.equal('/x');
    });

    it('sends the browser on to a path on the host after the ticket, never to another host', async () => {
      const aliceClient = await box.signIn('alice', 'alice password 1');
      const cases: [string, string][] = [
        ['https://app.local//evil.example/steal', '/evil.example/steal'],
        ['https://app.local///evil.example', '/evil.example'],
        ['https://app.local/%2F%2Fevil.example', '/%2F%2Fevil.example'],
        ['https://app.local', '/'],
        ['https://app.local/albums/1?sort=date', '/albums/1?sort=date'],
      ];
      for (const [url, location] of cases) {
        const ticket = await aliceClient.api.proxy.ticket({ body: { url } });
        const redeemed = await redeem(hostId, ticket.url);
        expect(redeemed.status, url).to.equal(302);
        expect(redeemed.headers.get('location'), url).to.equal(location);
      }
    });

    it('refuses a user without the grant, lets a group in, and knows no unprotected host', async () => {
      const bob = await box.signIn('bob', 'bob password 1');
      await expectProblem(bob.api.proxy.ticket({ body: { url: 'https://app.local/' } }), 'proxy.access.denied', 403);
      await expectProblem(bob.api.proxy.ticket({ body: { url: 'https://cam.local/' } }), 'proxy.host.unknown', 404);
      const bobId = bob.user?.id ?? 0;
      await admin.api.groups.update({ params: { groupId }, body: { memberIds: [bobId] } });
      await admin.api.proxy.updateHost({
        params: { id: hostId },
        body: host(['app.local'], { tls: { mode: 'authority' }, signIn: { enabled: true, userIds: [alice], groupIds: [groupId] } }),
      });
      const ticket = await bob.api.proxy.ticket({ body: { url: 'https://app.local/' } });
      expect((await redeem(hostId, ticket.url)).status).to.equal(302);
    });
  });
});
