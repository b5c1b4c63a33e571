import { request } from 'node:http';
import { expect } from 'chai';
import { adminPassword, expectProblem, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';

interface Answer {
  status: number;
  code: string | undefined;
  retryAfter: number | null;
}

/**
 * A sign-in sent from another loopback address (127.0.0.2): the attacker of these tests is
 * another machine of the network as far as the daemon can tell.
 */
function loginFrom(box: TestDaemon, localAddress: string, username: string, password: string, cookie?: string): Promise<Answer> {
  const url = new URL('/api/auth/login', box.url);
  const body = JSON.stringify({ username, password });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...(cookie ? { Cookie: cookie } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const parsed = JSON.parse(text) as { code?: string };
          const retry = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, code: parsed.code, retryAfter: retry === undefined ? null : Number(retry) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('auth: an attacker cannot lock the owner out', () => {
  let box: TestDaemon;
  beforeEach(async () => {
    box = await startTestDaemon();
  });
  afterEach(async () => {
    await box.close();
  });

  it('keeps throttling wrong passwords for admin from another address, while the owner’s known device still signs in', async () => {
    // The owner signed in before on their desktop: the browser holds the device cookie.
    const owner = await box.signIn();
    await owner.api.auth.logout();
    expect(owner.cookieHeader()).to.match(/box\.device=/);

    const attacker = '127.0.0.2';
    const answers: Answer[] = [];
    for (let i = 0; i < 12; i++) answers.push(await loginFrom(box, attacker, 'admin', `guess-${i}`));
    expect(answers.slice(0, 5).map((a) => a.code)).to.deep.equal(Array(5).fill('auth.credentials.invalid'));
    // From the sixth try on the attacker is locked: 429 with Retry-After, every time.
    for (const a of answers.slice(5)) expect(a).to.include({ status: 429, code: 'auth.login.throttled' });
    expect(answers[5]?.retryAfter).to.be.within(1, 30);
    // Even the right password does not get through from there while the lock lasts.
    expect((await loginFrom(box, attacker, 'admin', adminPassword)).code).to.equal('auth.login.throttled');

    // The owner's known device is not held by the attacker's failures.
    expect((await owner.api.auth.login({ body: { username: 'admin', password: adminPassword } })).state).to.equal('signedIn');
  });

  it('locks admin for every unknown device once failures spread over many addresses add up, but not for the known device', async () => {
    const owner = await box.signIn();
    await owner.api.auth.logout();
    // Four tries from each of five addresses: no address reaches its own limit, the name's count over unknown devices does.
    for (let host = 2; host <= 6; host++) {
      for (let i = 0; i < 4; i++) expect((await loginFrom(box, `127.0.0.${host}`, 'admin', `spread-${i}`)).code).to.equal('auth.credentials.invalid');
    }
    expect((await loginFrom(box, '127.0.0.7', 'admin', adminPassword)).code).to.equal('auth.login.throttled');
    await expectProblem(box.client().api.auth.login({ body: { username: 'admin', password: adminPassword } }), 'auth.login.throttled', 429);
    expect((await owner.api.auth.login({ body: { username: 'admin', password: adminPassword } })).state).to.equal('signedIn');
  });

  it('throttles a known device by its own failures, and counts a forged or another user’s cookie as none', async () => {
    const owner = await box.signIn();
    await owner.api.auth.logout();
    const cookie = owner.cookieHeader().match(/box\.device=([^;]+)/)?.[1] as string;

    // A tampered signature or a cookie carried to another name is an unknown device: the attacker's lock holds it.
    const [name, device, mac] = cookie.split('.') as [string, string, string];
    const forged = `box.device=${name}.${device}.${mac.slice(0, -2)}AA`;
    for (let i = 0; i < 5; i++) await loginFrom(box, '127.0.0.2', 'admin', `guess-${i}`, forged);
    expect((await loginFrom(box, '127.0.0.2', 'admin', adminPassword, forged)).code).to.equal('auth.login.throttled');
    expect((await loginFrom(box, '127.0.0.3', 'someone-else', 'guess', `box.device=${cookie}`)).code).to.equal('auth.credentials.invalid');

    // Guessing from the known device itself locks that device after five failures.
    for (let i = 0; i < 5; i++)
      await expectProblem(owner.api.auth.login({ body: { username: 'admin', password: `own-${i}` } }), 'auth.credentials.invalid', 401);
    await expectProblem(owner.api.auth.login({ body: { username: 'admin', password: adminPassword } }), 'auth.login.throttled', 429);
  });
});

describe('auth: control characters never reach the database', () => {
  it('refuses a NUL or escape in a user name at sign-in and recovery with 400 and the field named, and stays healthy', async () => {
    const box = await startTestDaemon();
    try {
      for (const [route, extra] of [
        ['/api/auth/login', {}],
        ['/api/auth/recover', { recoveryCode: 'abc' }],
      ] as const) {
        for (const username of ['\u0000', 'admin\u0000', 'ad\u001bmin']) {
          const res = await box.client().request('POST', route, { body: { username, password: 'x', ...extra } });
          expect(res.status, `${route} ${JSON.stringify(username)}`).to.equal(400);
          const problem = (await res.json()) as { code: string; params: { errors: { path: string }[] } };
          expect(problem.code).to.equal('request.body.invalid');
          expect(problem.params.errors.map((e) => e.path)).to.deep.equal(['username']);
        }
      }
      expect((await box.client().api.auth.login({ body: { username: 'admin', password: adminPassword } })).state).to.equal('signedIn');
    } finally {
      await box.close();
    }
  });
});
