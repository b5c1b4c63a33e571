import { expect } from 'chai';
import { adminPassword, startTestDaemon } from '../helpers/daemon.ts';

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
