import { expect } from 'chai';
import { setups, userPassword } from './sweep/sweep-setups.ts';
import type { Operation } from './sweep/openapi-walk.ts';
import { absent, anonymous, ownSessionOperations, loadOperations, observable, send, signIn, type Caller } from './sweep/sweep-run.ts';

/**
 * Issue 19's access sweep: generated from each operation's x-access in the OpenAPI document the
 * daemon serves, against a daemon with the host tools and one whose PATH has none of them. A new
 * operation whose route table forgets its guard fails it without anyone writing a test for it.
 * (The hostile-input half runs with `npm run fuzz`: test/fuzz/hostile-input.test.ts.)
 */

for (const setup of setups()) {
  describe(`access over every operation, ${setup.name}`, function () {
    this.timeout(300_000);
    let base: string;
    let close: () => Promise<void>;
    let ops: Operation[];
    let admin: Caller;
    let user: Caller;
    let baseline: string;

    before(async () => {
      const started = await setup.start();
      ({ base, close } = started);
      admin = await signIn(base, 'admin', started.password);
      const made = await send(base, admin, 'POST', '/api/users', { body: JSON.stringify({ username: 'sweepuser', password: userPassword }) });
      expect(made.status, await made.clone().text()).to.equal(201);
      user = await signIn(base, 'sweepuser', userPassword);
      ({ ops } = await loadOperations(base));
      baseline = await observable(base, admin);
    });
    after(async () => {
      await close?.();
    });

    it('walks every documented operation', () => {
      // The document lists what the daemon implements; the sweep covers each of them.
      expect(ops.length).to.be.greaterThan(90);
      for (const id of ownSessionOperations)
        expect(
          ops.map((o) => o.id),
          id,
        ).to.include(id);
      expect(new Set(ops.map((o) => o.id)).size).to.equal(ops.length);
    });

    it('refuses every non-public operation without a session, every administrator operation to a plain user, every state change without the CSRF token', async () => {
      const findings: string[] = [];
      for (const op of ops) {
        const url = op.path.replace(/\{(\w+)\}/g, (_, n: string) => absent(n));
        const body = op.rawBody ? 'x' : op.body ? '{}' : undefined;
        const contentType = op.rawBody ? 'application/octet-stream' : undefined;
        const expectCode = async (caller: Caller, csrf: boolean, status: number, code: string) => {
          const res = await send(base, caller, op.method, url, { body, contentType, csrf });
          const got = (await res.json().catch(() => ({}))) as { code?: string };
          if (res.status !== status || got.code !== code)
            findings.push(`${op.id} as ${caller.name}${csrf ? '' : ' without CSRF'}: ${res.status} ${got.code}, not ${status} ${code}`);
        };
        if (op.access !== 'public') await expectCode(anonymous, true, 401, 'auth.session.required');
        if (op.access === 'admin' || op.access.startsWith('right:')) await expectCode(user, true, 403, 'auth.permission.denied');
        if (op.csrf) await expectCode(admin, false, 403, 'auth.csrf.invalid');
      }
      expect(findings).to.deep.equal([]);
    });

    it('is healthy afterwards, every session still works, and nothing refused changed users, groups, shares or settings', async () => {
      expect((await fetch(`${base}/api/health`)).status).to.equal(200);
      for (const caller of [admin, user]) expect((await send(base, caller, 'GET', '/api/auth/session')).status, caller.name).to.equal(200);
      expect(await observable(base, admin)).to.equal(baseline);
    });
  });
}
