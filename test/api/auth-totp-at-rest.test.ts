import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { generateSecret } from 'otplib';
import { QueryTypes } from 'sequelize';
import { expectProblem, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { createUser, signInWithTotp, totpCode, userPassword } from '../helpers/identity.ts';

async function storedSecret(box: TestDaemon, userId: number): Promise<string> {
  const rows = await box.daemon.db.query<{ secret: string }>('SELECT secret FROM user_totp WHERE user_id = ?', {
    replacements: [userId],
    type: QueryTypes.SELECT,
  });
  return rows[0]!.secret;
}

// TOTP secrets at rest: sealed with AES-256-GCM under <dataDir>/totp-key, never in the database in plain text.
describe('TOTP secrets encrypted at rest', () => {
  let box: TestDaemon;
  afterEach(async () => box?.close());

  it('stores no plain secret, keeps the key in a 0600 file, and enrolment, confirmation and sign-in still work', async () => {
    box = await startTestDaemon();
    const admin = await box.signIn();
    const user = await createUser(admin);
    const c = await box.signIn(user.username, userPassword);
    const { secret } = await c.api.auth.totpEnroll();
    const pending = await storedSecret(box, user.id);
    expect(pending).to.match(/^v1:/).and.not.include(secret);
    await c.api.auth.totpConfirm({ body: { code: await totpCode(secret, -1) } });
    expect(await storedSecret(box, user.id)).to.equal(pending);
    const signedIn = await signInWithTotp(box, user.username, secret, 0);
    expect(signedIn.user).to.include({ username: user.username, totpEnabled: true });
    const keyFile = path.join(box.dataDir, 'totp-key');
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    // Neither the database file nor the log store holds the secret.
    await box.close({ keepData: true });
    for (const file of ['cellar.sqlite', 'logs.sqlite']) expect(readFileSync(path.join(box.dataDir, file)).includes(secret), file).to.equal(false);
    box = await startTestDaemon({ dataDir: box.dataDir });
  });

  it('seals a plain secret of an older database at start, once, and the user still signs in with it', async () => {
    box = await startTestDaemon();
    const admin = await box.signIn();
    const user = await createUser(admin);
    const secret = generateSecret();
    await box.daemon.db.query('INSERT INTO user_totp (user_id, secret, enabled, last_step, updated_at) VALUES (?, ?, 1, NULL, ?)', {
      replacements: [user.id, secret, new Date().toISOString()],
    });
    const { dataDir } = box;
    await box.close({ keepData: true });
    box = await startTestDaemon({ dataDir });
    const sealed = await storedSecret(box, user.id);
    expect(sealed).to.match(/^v1:/).and.not.include(secret);
    await box.close({ keepData: true });
    box = await startTestDaemon({ dataDir });
    expect(await storedSecret(box, user.id), 'a second start changes nothing').to.equal(sealed);
    expect((await signInWithTotp(box, user.username, secret, 0)).user).to.include({ totpEnabled: true });
  });

  it('refuses a code against a tampered secret with auth.totp.invalid, and the daemon keeps answering', async () => {
    box = await startTestDaemon();
    const admin = await box.signIn();
    const user = await createUser(admin);
    const c = await box.signIn(user.username, userPassword);
    const { secret } = await c.api.auth.totpEnroll();
    const { codes } = await c.api.auth.totpConfirm({ body: { code: await totpCode(secret, -1) } });
    const stored = await storedSecret(box, user.id);
    // One bit of the ciphertext flipped (iv 12 bytes and tag 16 bytes come first).
    const raw = Buffer.from(stored.slice(3), 'base64url');
    raw[30] = raw[30]! ^ 1;
    await box.daemon.db.query('UPDATE user_totp SET secret = ? WHERE user_id = ?', { replacements: [`v1:${raw.toString('base64url')}`, user.id] });
    const t = box.client();
    expect((await t.api.auth.login({ body: { username: user.username, password: userPassword } })).state).to.equal('totpRequired');
    await expectProblem(t.api.auth.loginTotp({ body: { code: await totpCode(secret) } }), 'auth.totp.invalid', 401);
    // A sealed secret copied from another user's row does not open either (the user id is bound in).
    const other = await createUser(admin);
    await box.daemon.db.query('UPDATE user_totp SET secret = ? WHERE user_id = ?', { replacements: [stored, user.id] });
    await box.daemon.db.query('INSERT INTO user_totp (user_id, secret, enabled, last_step, updated_at) VALUES (?, ?, 1, NULL, ?)', {
      replacements: [other.id, stored, new Date().toISOString()],
    });
    const o = box.client();
    await o.api.auth.login({ body: { username: other.username, password: userPassword } });
    await expectProblem(o.api.auth.loginTotp({ body: { code: await totpCode(secret, 1) } }), 'auth.totp.invalid', 401);
    // The way out stays open: a recovery code signs in.
    const recovered = await box.client().api.auth.recover({ body: { username: user.username, password: userPassword, recoveryCode: codes[0]! } });
    expect(recovered.user.username).to.equal(user.username);
    expect(existsSync(path.join(box.dataDir, 'totp-key'))).to.equal(true);
  });
});
