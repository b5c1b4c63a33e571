import { expect } from 'chai';
import { adminPassword, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { createUser, signInWithTotp, totpCode, userPassword } from '../helpers/identity.ts';

// Issue 11: wrong passwords for admin from anywhere must not lock the owner's known browser out.
// Other clients are told apart by the loopback address their connection leaves from (127.0.0.0/8); the daemon's clock is moved past each lock instead of waiting.
describe('auth: lockout without a lever for attackers (device cookies)', () => {
  const clock = { offset: 0, now: () => Date.now() + clock.offset };
  let box: TestDaemon;
  let owner: TestClient;
  let attackerAddress = 100;
  let other: { username: string; device: TestClient };

  before(async () => {
    box = await startTestDaemon({}, { clock });
    owner = await box.signIn('admin', adminPassword);
    const user = await createUser(owner);
    other = { username: user.username, device: await box.signIn(user.username, userPassword) };
  });
  after(() => box.close());

  /** A raw sign-in; `from` is the client address, `cookie` a Cookie header of the caller's own. */
  async function login(c: TestClient, password: string, from: string, username = 'admin'): Promise<Response> {
    return c.request('POST', '/api/auth/login', { body: { username, password }, from });
  }

  /** One wrong password from a new address each time, as a distributed guesser would send. */
  async function attack(): Promise<Response> {
    attackerAddress++;
    return login(box.client(), `guess-${attackerAddress}`, `127.0.0.${attackerAddress}`);
  }

  function retryAfter(res: Response): number {
    expect(res.status).to.equal(429);
    return Number(res.headers.get('retry-after'));
  }

  async function expectThrottled(res: Response): Promise<void> {
    expect(retryAfter(res)).to.be.greaterThan(0);
    expect((await res.json()).code).to.equal('auth.login.throttled');
  }

  it('issues an HttpOnly, SameSite=Strict device cookie for the sign-in paths at each sign-in', async () => {
    const res = await login(box.client(), adminPassword, '127.0.0.1');
    expect(res.status).to.equal(200);
    const cookie = res.headers.getSetCookie().find((line) => line.startsWith('box.device='));
    expect(cookie).to.match(/^box\.device=v1\.[\w-]+\.[\w-]+\.[0-9a-z]+\.[\w-]+;/);
    expect(cookie)
      .to.match(/; HttpOnly/)
      .and.match(/; SameSite=Strict/)
      .and.match(/; Path=\/api\/auth/)
      .and.match(/; Max-Age=31536000/);
    expect(cookie).to.not.match(/; Secure/);
  });

  it('keeps a distributed attacker throttled with growing locks while the owner’s device still signs in', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) answers.push((await attack()).status);
    expect(answers).to.deep.equal(Array(10).fill(401));
    const first = retryAfter(await attack());
    expect(first).to.be.within(1, 30);

    // The owner's browser (its device cookie) signs in during the attack, from its usual address.
    expect((await login(owner, adminPassword, '127.0.0.1')).status).to.equal(200);
    // An unknown browser with the right password, from an address the attacker never used, is held.
    await expectThrottled(await login(box.client(), adminPassword, '127.0.0.2'));

    // Each failure after a lock ran out locks for twice as long.
    const locks = [first];
    for (let round = 0; round < 3; round++) {
      clock.offset += (locks.at(-1)! + 1) * 1000;
      expect((await attack()).status).to.equal(401);
      locks.push(retryAfter(await attack()));
    }
    expect(locks[1]).to.be.greaterThan(locks[0]!);
    expect(locks[2]).to.be.greaterThan(locks[1]!);
    expect(locks[3]).to.be.greaterThan(locks[2]!);
    expect((await login(owner, adminPassword, '127.0.0.1')).status).to.equal(200);
  });

  it('counts a forged, tampered or other user’s device cookie as none', async () => {
    const own = owner.cookieHeader().match(/box\.device=([^;]+)/)![1]!;
    const parts = own.split('.');
    const flipped = (s: string) => (s.startsWith('A') ? 'B' : 'A') + s.slice(1);
    const forgeries = [
      // The mac changed.
      [...parts.slice(0, 4), flipped(parts[4]!)].join('.'),
      // Another nonce under the old mac.
      [parts[0], parts[1], flipped(parts[2]!), parts[3], parts[4]].join('.'),
      'v1.YWRtaW4.bm9uY2U.0.bm90LWEtbWFj',
      other.device.cookieHeader().match(/box\.device=([^;]+)/)![1]!,
    ];
    for (const forged of forgeries) {
      const res = await box.client().request('POST', '/api/auth/login', {
        body: { username: 'admin', password: adminPassword },
        headers: { Cookie: `box.device=${forged}` },
        from: '127.0.0.3',
      });
      await expectThrottled(res);
    }
    // The other user's device is a known device for that user only.
    expect((await login(other.device, userPassword, '127.0.0.1', other.username)).status).to.equal(200);
  });

  it('locks a known device that guesses, and only that device', async () => {
    // The attack is over: its locks and counts run out.
    clock.offset += 40 * 60_000;
    const laptop = await box.signIn('admin', adminPassword);
    // A copy of the owner's device cookie, as a stolen one would be.
    const stolen = owner.cookieHeader().match(/box\.device=([^;]+)/)![1]!;
    const send = (password: string) =>
      box.client().request('POST', '/api/auth/login', {
        body: { username: 'admin', password },
        headers: { Cookie: `box.device=${stolen}` },
        from: '127.0.0.4',
      });
    for (let i = 0; i < 5; i++) expect((await send(`guess-${i}`)).status).to.equal(401);
    await expectThrottled(await send(adminPassword));
    // Another known device of the owner is not held by this one's lock.
    expect((await login(laptop, adminPassword, '127.0.0.5')).status).to.equal(200);
    await expectThrottled(await send(adminPassword));
  });
});

describe('auth: the TOTP step under attack', () => {
  it('lets the known device through both steps while others are held, and locks its own wrong codes', async () => {
    const box = await startTestDaemon();
    try {
      const admin = await box.signIn();
      const { username } = await createUser(admin);
      const owner = await box.signIn(username, userPassword);
      const { secret } = await owner.api.auth.totpEnroll();
      await owner.api.auth.totpConfirm({ body: { code: await totpCode(secret, -1) } });
      // The owner's browser signs in with both steps and is known from then on.
      const device = await signInWithTotp(box, username, secret, 0);
      const both = (c: TestClient, from: string, password: string) => c.request('POST', '/api/auth/login', { body: { username, password }, from });
      for (let i = 0; i < 10; i++) expect((await both(box.client(), `127.0.1.${i}`, `guess-${i}`)).status).to.equal(401);
      expect((await both(box.client(), '127.0.2.1', userPassword)).status).to.equal(429);

      expect(await (await both(device, '127.0.0.1', userPassword)).json()).to.deep.equal({ state: 'totpRequired' });
      const right = await totpCode(secret, 1);
      const wrong = right === '000000' ? '111111' : '000000';
      const step = (code: string) => device.request('POST', '/api/auth/login/totp', { body: { code }, from: '127.0.0.1' });
      for (let i = 0; i < 5; i++) expect((await step(wrong)).status).to.equal(401);
      const held = await step(right);
      expect(held.status).to.equal(429);
      expect(Number(held.headers.get('retry-after'))).to.be.within(1, 30);
    } finally {
      await box.close();
    }
  });
});

describe('auth: the address the throttle counts is the connection’s', () => {
  it('counts wrong passwords under the caller’s own address, whatever X-Forwarded-For or X-Real-IP it names', async () => {
    const box = await startTestDaemon();
    try {
      // A local process (an app's backend) naming another address at each guess.
      const guess = (password: string, i: number) =>
        box.client().request('POST', '/api/auth/login', {
          body: { username: 'admin', password },
          headers: i % 2 === 0 ? { 'X-Forwarded-For': `192.0.2.${i}` } : { 'X-Real-IP': `192.0.2.${i}`, 'X-Forwarded-For': `198.51.100.${i}, 192.0.2.${i}` },
          from: '127.0.0.30',
        });
      for (let i = 0; i < 5; i++) expect((await guess(`guess-${i}`, i)).status).to.equal(401);
      // Five from one address hold that address, the right password too, under yet another named address.
      const held = await guess(adminPassword, 9);
      expect(held.status).to.equal(429);
      expect((await held.json()).code).to.equal('auth.login.throttled');
      // Another address is not held by that one's guesses.
      const elsewhere = await box.client().request('POST', '/api/auth/login', { body: { username: 'admin', password: adminPassword }, from: '127.0.0.31' });
      expect(elsewhere.status).to.equal(200);
    } finally {
      await box.close();
    }
  });
});
