import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';

interface Answer {
  status: number;
  connection: string | undefined;
  code?: string;
  /** Whether the request went over a connection an earlier request had used. */
  reused: boolean;
}

/**
 * A 1 MiB JSON body past a route's limit, sent on a keep-alive connection that already carried
 * requests, was once seen to hang instead of answering 413. It answers at once, with or without
 * Expect: 100-continue, and the connection then serves the next request.
 */
describe('http: a body past the JSON limit on a keep-alive connection', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let agent: http.Agent;

  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    // One socket: every request below goes over the same kept-alive connection where it can.
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  });
  after(async () => {
    agent.destroy();
    await box.close();
  });

  function request(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
    const url = new URL(path, box.url);
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        {
          method,
          agent,
          headers: {
            Cookie: admin.cookieHeader(),
            'X-CSRF-Token': admin.csrfToken ?? '',
            ...(body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }),
            ...headers,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            const code = res.statusCode && res.statusCode >= 400 ? (JSON.parse(text) as { code: string }).code : undefined;
            resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, code, reused: req.reusedSocket });
          });
        },
      );
      req.on('error', reject);
      // A hang is the finding: it fails here instead of at mocha's timeout.
      req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path} got no answer in 10 s`)));
      if (body !== undefined && headers.Expect) req.on('continue', () => req.end(body));
      else req.end(body);
    });
  }

  it('answers 413 request.body.too_large and keeps serving the connection', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 5; i++) expect((await request('GET', '/api/users')).status).to.equal(200);
      for (const headers of [{}, { Expect: '100-continue' }] as Record<string, string>[]) {
        expect(await request('POST', '/api/groups', big, headers)).to.deep.equal({
          status: 413,
          connection: 'keep-alive',
          code: 'request.body.too_large',
          reused: true,
        });
        expect(await request('GET', '/api/users')).to.include({ status: 200, reused: true });
      }
    }
  });

  it('closes after a declared length far past the limit without a reset, while the client still sends', async () => {
    const url = new URL(box.url);
    // Half-open allowed: like a browser, the client goes on sending after the box's FIN.
    const socket = net.connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true });
    let received = '';
    let ended = false;
    let failure: Error | null = null;
    socket.setEncoding('utf8').on('data', (text: string) => (received += text));
    socket.on('end', () => (ended = true)).on('error', (err) => (failure = err));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/groups HTTP/1.1\r\nHost: ${url.host}\r\nCookie: ${admin.cookieHeader()}\r\nX-CSRF-Token: ${admin.csrfToken ?? ''}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${2 ** 31}\r\n\r\n`,
    );
    // Keeps sending after the answer and after the box's FIN: a box that closed at once would
    // make the kernel answer these bytes with a reset.
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    for (let sent = 0; sent < 64 && failure === null; sent++) {
      if (!socket.write(chunk)) await drainedOrClosed(socket);
    }
    socket.end();
    if (!socket.destroyed) await new Promise((resolve) => socket.once('close', resolve));
    expect(failure).to.equal(null);
    expect(received, received).to.match(/^HTTP\/1\.1 413 /);
    expect(received).to.include('"code":"request.body.too_large"');
    expect(ended).to.equal(true);
  });
});

function drainedOrClosed(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done).off('close', done);
      resolve();
    };
    socket.on('drain', done).on('close', done);
  });
}
