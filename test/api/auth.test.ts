import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import { generate } from 'otplib';
import { adminPassword, expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { createUser, totpCode, userPassword } from '../helpers/identity.ts';
import { connectSocket } from '../helpers/socket.ts';

describe('auth: TOTP, recovery codes, password change and sessions', () => {
  let box: TestDaemon;
  let admin: TestClient;
  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn('admin', adminPassword);
  });
  after(() => box.close());

  /** A signed-in user of its own, for tests that change the user. */
  async function freshUser(): Promise<{ username: string; c: TestClient }> {
    const user = await createUser(admin);
    return { username: user.username, c: await box.signIn(user.username, userPassword) };
  }

  async function enrol(c: TestClient): Promise<{ secret: string; codes: string[] }> {
    const enrolment = await c.api.auth.totpEnroll();
    const { codes } = await c.api.auth.totpConfirm({ body: { code: await totpCode(enrolment.secret, -1) } });
    return { secret: enrolment.secret, codes };
  }

  it('enrols TOTP with a secret, otpauth URI and a PNG QR code made on the box', async () => {
    const { c, username } = await freshUser();
    const enrolment = await c.api.auth.totpEnroll();
    expect(enrolment.secret).to.match(/^[A-Z2-7]+=*$/);
    expect(enrolment.uri)
      .to.match(new RegExp(`^otpauth://totp/Cellar:${username}\\?`))
      .and.include(`secret=${enrolment.secret}`);
    const png = Buffer.from(enrolment.qrCode.replace(/^data:image\/png;base64,/, ''), 'base64');
    expect(png.subarray(1, 4).toString()).to.equal('PNG');
    // Not on until confirmed: the next sign-in needs no code.
    expect((await box.client().api.auth.login({ body: { username, password: userPassword } })).state).to.equal('signedIn');
    await expectProblem(
      c.api.auth.totpConfirm({ body: { code: '000000' === (await totpCode(enrolment.secret)) ? '111111' : '000000' } }),
      'auth.totp.invalid',
      401,
    );
    const { codes } = await c.api.auth.totpConfirm({ body: { code: await totpCode(enrolment.secret) } });
    expect(codes).to.have.length(10);
    expect(new Set(codes).size).to.equal(10);
    expect((await c.api.auth.session()).totpEnabled).to.equal(true);
    await expectProblem(c.api.auth.totpEnroll(), 'auth.totp.already_enabled', 409);
    await expectProblem(c.api.auth.totpConfirm({ body: { code: await totpCode(enrolment.secret) } }), 'auth.totp.already_enabled', 409);
    // Only hashes are stored.
    const rows = await box.daemon.db.query<{ code_hash: string }>('SELECT code_hash FROM recovery_codes WHERE user_id = ?', {
      replacements: [c.user!.id],
      type: QueryTypes.SELECT,
    });
    expect(rows).to.have.length(10);
    for (const code of codes) expect(rows.map((r) => r.code_hash)).to.not.include(code);
  });

  it('refuses confirm without an enrolment', async () => {
    const { c } = await freshUser();
    await expectProblem(c.api.auth.totpConfirm({ body: { code: '123456' } }), 'auth.totp.not_enrolling', 409);
  });

  it('signs in in two steps with codes computed by otplib and refuses a replayed code', async () => {
    const { c, username } = await freshUser();
    const { secret } = await enrol(c);
    const second = box.client();
    const first = await second.api.auth.login({ body: { username, password: userPassword } });
    expect(first).to.deep.equal({ state: 'totpRequired' });
    // Half signed in: no access yet.
    await expectProblem(second.api.auth.session(), 'auth.session.required', 401);
    await expectProblem(second.api.auth.loginTotp({ body: { code: (await totpCode(secret)) === '123456' ? '654321' : '123456' } }), 'auth.totp.invalid', 401);
    const code = await totpCode(secret);
    const info = await second.api.auth.loginTotp({ body: { code } });
    expect(info).to.include({ username, totpEnabled: true });
    second.csrfToken = info.csrfToken;
    expect((await second.api.auth.session()).username).to.equal(username);

    const third = box.client();
    expect((await third.api.auth.login({ body: { username, password: userPassword } })).state).to.equal('totpRequired');
    await expectProblem(third.api.auth.loginTotp({ body: { code } }), 'auth.totp.reused', 401);
    const next = await third.api.auth.loginTotp({ body: { code: await totpCode(secret, 1) } });
    expect(next.username).to.equal(username);
  });

  it('refuses the code step without a password step, and after 5 minutes', async () => {
    await expectProblem(box.client().api.auth.loginTotp({ body: { code: '123456' } }), 'auth.totp.pending_missing', 401);
    const { c, username } = await freshUser();
    const { secret } = await enrol(c);
    const late = box.client();
    await late.api.auth.login({ body: { username, password: userPassword } });
    // Age the half-signed-in state in the session store (its row and its cache) by 6 minutes.
    const sid = decodeURIComponent(late.cookieHeader().split('box.sid=')[1]!.split(';')[0]!).slice(2).split('.')[0]!;
    const store = box.daemon.sessionStore;
    const data = await store.isAlive(sid);
    expect(data?.pendingUserId).to.equal(c.user!.id);
    await new Promise<void>((resolve, reject) => store.set(sid, { ...data!, pendingSince: Date.now() - 6 * 60_000 }, (err) => (err ? reject(err) : resolve())));
    await expectProblem(late.api.auth.loginTotp({ body: { code: await totpCode(secret) } }), 'auth.totp.pending_missing', 401);
  });

  it('recovers with a recovery code once; TOTP stays on', async () => {
    const { c, username } = await freshUser();
    const { codes } = await enrol(c);
    const r = box.client();
    const answer = await r.api.auth.recover({ body: { username, password: userPassword, recoveryCode: codes[0]! } });
    expect(answer.user).to.include({ username, totpEnabled: true });
    expect(answer.recoveryCodesLeft).to.equal(9);
    r.csrfToken = answer.user.csrfToken;
    expect((await r.api.auth.session()).username).to.equal(username);
    await expectProblem(box.client().api.auth.recover({ body: { username, password: userPassword, recoveryCode: codes[0]! } }), 'auth.recovery.invalid', 401);
    await expectProblem(
      box.client().api.auth.recover({ body: { username, password: 'wrong-password-1', recoveryCode: codes[1]! } }),
      'auth.credentials.invalid',
      401,
    );
    // TOTP is still asked for.
    expect((await box.client().api.auth.login({ body: { username, password: userPassword } })).state).to.equal('totpRequired');
  });

  it('refuses recovery for a user without TOTP', async () => {
    const { username } = await freshUser();
    await expectProblem(
      box.client().api.auth.recover({ body: { username, password: userPassword, recoveryCode: 'abcde-fghij' } }),
      'auth.recovery.invalid',
      401,
    );
  });

  it('turns TOTP off only with the password and a current code (or a recovery code)', async () => {
    const { c, username } = await freshUser();
    const { secret, codes } = await enrol(c);
    await expectProblem(c.api.auth.totpDisable({ body: { password: 'not-my-password', code: await totpCode(secret) } }), 'auth.password.wrong', 403);
    await expectProblem(
      c.api.auth.totpDisable({ body: { password: userPassword, code: (await totpCode(secret)) === '999999' ? '888888' : '999999' } }),
      'auth.totp.invalid',
      401,
    );
    await c.api.auth.totpDisable({ body: { password: userPassword, code: await totpCode(secret) } });
    expect((await c.api.auth.session()).totpEnabled).to.equal(false);
    expect((await box.client().api.auth.login({ body: { username, password: userPassword } })).state).to.equal('signedIn');
    await expectProblem(c.api.auth.totpDisable({ body: { password: userPassword, code: '123456' } }), 'auth.totp.not_enabled', 409);

    const again = await enrol(c);
    expect(again.codes).to.not.deep.equal(codes);
    await c.api.auth.totpDisable({ body: { password: userPassword, code: again.codes[3]! } });
    expect((await c.api.auth.session()).totpEnabled).to.equal(false);
  });

  it('changes the own password with the current one, keeps this session and ends the others', async () => {
    const { c, username } = await freshUser();
    const other = await box.signIn(username, userPassword);
    await expectProblem(
      c.api.auth.changePassword({ body: { currentPassword: 'wrong-password-2', newPassword: 'apricot-tree-77' } }),
      'auth.password.wrong',
      403,
    );
    const weak = await expectProblem(c.api.auth.changePassword({ body: { currentPassword: userPassword, newPassword: 'short' } }), 'auth.password.weak', 400);
    expect(weak.problem.params).to.deep.include({ reason: 'too_short', minLength: 10 });
    expect(
      (await expectProblem(c.api.auth.changePassword({ body: { currentPassword: userPassword, newPassword: username } }), 'auth.password.weak')).problem.params
        ?.reason,
    ).to.be.oneOf(['same_as_username', 'too_short']);
    expect(
      (await expectProblem(c.api.auth.changePassword({ body: { currentPassword: userPassword, newPassword: 'Password123' } }), 'auth.password.weak')).problem
        .params?.reason,
    ).to.equal('common');
    await c.api.auth.changePassword({ body: { currentPassword: userPassword, newPassword: 'apricot-tree-77' } });
    expect((await c.api.auth.session()).username).to.equal(username);
    await expectProblem(other.api.auth.session(), 'auth.session.required', 401);
    await expectProblem(box.client().api.auth.login({ body: { username, password: userPassword } }), 'auth.credentials.invalid', 401);
    expect((await box.client().api.auth.login({ body: { username, password: 'apricot-tree-77' } })).state).to.equal('signedIn');
  });

  it('closes the sockets of a session that signs out', async () => {
    const { c } = await freshUser();
    const socket = await connectSocket(box.url, c);
    try {
      await c.api.auth.logout();
      expect(await socket.waitForDisconnect()).to.equal('io server disconnect');
    } finally {
      socket.close();
    }
  });

  it("pushes the effective rights on users/<id>/grants and refuses other users' topics", async () => {
    const { c } = await freshUser();
    const socket = await connectSocket(box.url, c);
    try {
      const ack = await socket.subscribe(`users/${c.user!.id}/grants`);
      expect(ack).to.deep.include({ ok: true, snapshot: { admin: false, rights: [] } });
      const denied = await socket.subscribe(`users/${admin.user!.id}/grants`);
      expect(denied.ok).to.equal(false);
      const event = socket.nextEvent(`users/${c.user!.id}/grants`);
      await admin.api.permissions.setUserGrants({ params: { userId: c.user!.id }, body: { rights: ['system.power'] } });
      expect((await event).data).to.deep.equal({ admin: false, rights: ['system.power'] });
    } finally {
      socket.close();
    }
  });

  it('answers 401 without a session and 400 on bad input for every auth route', async () => {
    const anon = box.client();
    await expectProblem(anon.api.auth.totpEnroll(), 'auth.session.required', 401);
    await expectProblem(anon.api.auth.totpConfirm({ body: { code: '123456' } }), 'auth.session.required', 401);
    await expectProblem(anon.api.auth.totpDisable({ body: { password: 'x', code: '123456' } }), 'auth.session.required', 401);
    await expectProblem(anon.api.auth.changePassword({ body: { currentPassword: 'x', newPassword: 'y' } }), 'auth.session.required', 401);
    await expectProblem(anon.api.auth.logout(), 'auth.session.required', 401);
    await expectProblem(anon.api.auth.loginTotp({ body: { code: '12ab56' } }), 'request.body.invalid', 400);
    await expectProblem(anon.api.auth.recover({ body: { username: 'x', password: 'y' } as never }), 'request.body.invalid', 400);
    const { c } = await freshUser();
    await expectProblem(c.api.auth.totpConfirm({ body: { code: '12345' } }), 'request.body.invalid', 400);
    await expectProblem(c.api.auth.totpDisable({ body: { password: '', code: '123456' } }), 'request.body.invalid', 400);
    await expectProblem(c.api.auth.changePassword({ body: { currentPassword: userPassword } as never }), 'request.body.invalid', 400);
  });

  it('never logs a TOTP secret or code', async () => {
    const { c } = await freshUser();
    const enrolment = await c.api.auth.totpEnroll();
    const code = await generate({ secret: enrolment.secret });
    await c.api.auth.totpConfirm({ body: { code } });
    for (const secret of [enrolment.secret, code]) {
      const found = await admin.api.logs.list({ query: { search: secret } });
      expect(JSON.stringify(found)).to.not.include(secret);
    }
  });
});

// Sequelize models are bound to one database at a time, so a daemon of its own runs after the shared one is closed.
describe('auth: the first administrator password', () => {
  it('removes the first administrator password file once admin changes the password', async () => {
    const own = await startTestDaemon({ adminPassword: null });
    try {
      const file = path.join(own.dataDir, 'initial-admin-password');
      expect(existsSync(file)).to.equal(true);
      const initial = readFileSync(file, 'utf8').trim();
      const c = await own.signIn('admin', initial);
      await c.api.auth.changePassword({ body: { currentPassword: initial, newPassword: 'quince-harvest-19' } });
      expect(existsSync(file)).to.equal(false);
    } finally {
      await own.close();
    }
  });
});

describe('auth: sign-in throttling', () => {
  it('locks a user name after 5 failures, known or not, with 429 and Retry-After, also across a restart', async () => {
    let box = await startTestDaemon();
    try {
      const admin = await box.signIn();
      const user = await createUser(admin);
      const ghost = 'nobody-here';
      for (let i = 0; i < 5; i++) {
        await expectProblem(box.client().api.auth.login({ body: { username: user.username, password: `wrong-${i}` } }), 'auth.credentials.invalid', 401);
        await expectProblem(box.client().api.auth.login({ body: { username: ghost, password: `wrong-${i}` } }), 'auth.credentials.invalid', 401);
      }
      for (const username of [user.username, ghost]) {
        const res = await box.client().request('POST', '/api/auth/login', { body: { username, password: userPassword } });
        expect(res.status).to.equal(429);
        const retryAfter = Number(res.headers.get('retry-after'));
        expect(retryAfter).to.be.within(1, 30);
        const body = await res.json();
        expect(body).to.include({ code: 'auth.login.throttled' });
        expect(body.params.retryAfter).to.equal(retryAfter);
      }
      // Other names from the same address still sign in.
      expect((await box.client().api.auth.login({ body: { username: 'admin', password: adminPassword } })).state).to.equal('signedIn');

      await box.close({ keepData: true });
      box = await startTestDaemon({ dataDir: box.dataDir });
      await expectProblem(box.client().api.auth.login({ body: { username: user.username, password: userPassword } }), 'auth.login.throttled', 429);
    } finally {
      await box.close();
    }
  });

  it('locks a client address after 20 failures over any names', async () => {
    const box = await startTestDaemon();
    try {
      for (let i = 0; i < 20; i++) {
        await expectProblem(box.client().api.auth.login({ body: { username: `guess${i}`, password: 'wrong-password' } }), 'auth.credentials.invalid', 401);
      }
      await expectProblem(box.client().api.auth.login({ body: { username: 'admin', password: adminPassword } }), 'auth.login.throttled', 429);
    } finally {
      await box.close();
    }
  });

  it('counts wrong TOTP codes towards the user name lock', async () => {
    const box = await startTestDaemon();
    try {
      const admin = await box.signIn();
      const user = await createUser(admin);
      const c = await box.signIn(user.username, userPassword);
      const enrolment = await c.api.auth.totpEnroll();
      await c.api.auth.totpConfirm({ body: { code: await totpCode(enrolment.secret) } });
      const attacker = box.client();
      await attacker.api.auth.login({ body: { username: user.username, password: userPassword } });
      const right = await totpCode(enrolment.secret);
      const wrong = right === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) await expectProblem(attacker.api.auth.loginTotp({ body: { code: wrong } }), 'auth.totp.invalid', 401);
      await expectProblem(attacker.api.auth.loginTotp({ body: { code: await totpCode(enrolment.secret, 1) } }), 'auth.login.throttled', 429);
    } finally {
      await box.close();
    }
  });
});
