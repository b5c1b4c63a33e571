import { expect } from 'chai';
import { prepareSweep, setups, type PreparedSweep } from './sweep/sweep-setups.ts';
import { absent, anonymous, contractFinding, observable, ownSessionOperations, send, type Caller } from './sweep/sweep-run.ts';

/**
 * Issue 19's access sweep: generated from each operation's x-access in the OpenAPI document the
 * daemon serves, against a daemon with the host tools and one whose PATH has none of them. A new
 * operation whose route table forgets its guard fails it without anyone writing a test for it.
 * (The hostile-input half is test/api/hostile-input.test.ts.)
 */

for (const setup of setups()) {
  describe(`access over every operation, ${setup.name}`, function () {
    this.timeout(300_000);
    let s: PreparedSweep;

    before(async () => {
      s = await prepareSweep(setup);
    });
    after(async () => {
      await s?.close();
    });

    it('walks every documented operation', () => {
      // The document lists what the daemon implements; the sweep covers each of them.
      expect(s.ops.length).to.be.greaterThan(90);
      for (const id of ownSessionOperations)
        expect(
          s.ops.map((o) => o.id),
          id,
        ).to.include(id);
      expect(new Set(s.ops.map((o) => o.id)).size).to.equal(s.ops.length);
    });

    it('refuses every non-public operation without a session, every administrator operation to a plain user, every state change without the CSRF token', async () => {
      const findings: string[] = [];
      for (const op of s.ops) {
        const url = op.path.replace(/\{(\w+)\}/g, (_, n: string) => absent(n));
        const body = op.rawBody ? 'x' : op.body ? '{}' : undefined;
        const contentType = op.rawBody ? 'application/octet-stream' : undefined;
        const expectCode = async (caller: Caller, csrf: boolean, status: number, code: string) => {
          const res = await send(s.base, caller, op.method, url, { body, contentType, csrf });
          const mismatch = await contractFinding(s.base, op.method, url, res);
          if (mismatch) findings.push(`${op.id} as ${caller.name}${csrf ? '' : ' without CSRF'}: ${mismatch}`);
          const got = (await res.json().catch(() => ({}))) as { code?: string };
          if (res.status !== status || got.code !== code)
            findings.push(`${op.id} as ${caller.name}${csrf ? '' : ' without CSRF'}: ${res.status} ${got.code}, not ${status} ${code}`);
        };
        // The API for apps takes only a window's bearer token: the session cookie of any caller is no way in.
        if (op.access === 'app') for (const caller of [anonymous, s.user, s.admin]) await expectCode(caller, true, 401, 'app.token.invalid');
        else if (op.access !== 'public') await expectCode(anonymous, true, 401, 'auth.session.required');
        if (op.access === 'admin' || op.access.startsWith('right:')) await expectCode(s.user, true, 403, 'auth.permission.denied');
        if (op.csrf) await expectCode(s.admin, false, 403, 'auth.csrf.invalid');
      }
      expect(findings).to.deep.equal([]);
    });

    it('is healthy afterwards, every session still works, and nothing refused changed users, groups, shares or settings', async () => {
      expect((await fetch(`${s.base}/api/health`)).status).to.equal(200);
      for (const caller of [s.admin, s.user]) expect((await send(s.base, caller, 'GET', '/api/auth/session')).status, caller.name).to.equal(200);
      expect(await observable(s.base, s.admin)).to.equal(s.baseline);
    });
  });
}
