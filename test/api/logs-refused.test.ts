import { expect } from 'chai';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { insertUser } from '../helpers/users.ts';

describe('logs: refused requests leave a trace', () => {
  let box: TestDaemon;
  let admin: TestClient;
  let user: TestClient;

  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    const userId = await insertUser(box, 'dora', 'dora password 123');
    user = await box.signIn('dora', 'dora password 123');
    expect(userId).to.be.a('number');
  });
  after(() => box.close());

  const refusalsOf = async (requestId: string) =>
    (await admin.api.logs.list({ query: { search: requestId } })).items.filter((e) => e.message === 'request refused');

  it('finds the request id of a 403 in the logs, with method, path, code and user, never the body or query', async () => {
    const res = await user.request('POST', '/api/users?secret-query=1', { body: { username: 'mallory', password: 'body-secret-value' } });
    expect(res.status).to.equal(403);
    const requestId = res.headers.get('x-request-id') as string;
    const [entry, ...more] = await refusalsOf(requestId);
    expect(more).to.deep.equal([]);
    expect(entry).to.deep.include({ level: 'info', requestId, userId: user.user?.id });
    expect(entry?.fields).to.deep.include({ method: 'POST', path: '/api/users', status: 403, code: 'auth.permission.denied' });
    expect(JSON.stringify(entry)).not.to.match(/body-secret-value|secret-query/);
  });

  it('logs a flood from one client only up to its limit and names the count it left out', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 80; i++) {
      const res = await user.request('GET', `/api/no-such-route-${i}`);
      expect(res.status).to.equal(404);
      ids.push(res.headers.get('x-request-id') as string);
    }
    const logged = (await admin.api.logs.list({ query: { search: 'refused', limit: 500 } })).items.filter((e) =>
      String(e.fields.path).startsWith('/api/no-such-route-'),
    );
    // A burst of 30 per client address (the 403 above took one), then one every two seconds at most.
    expect(logged.length).to.be.within(25, 40);
    expect(await refusalsOf(ids[79] as string)).to.deep.equal([]);
    // Once the bucket has a token again, the next refusal says how many went unlogged before it.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const next = await user.request('GET', '/api/no-such-route-after');
    const [entry] = await refusalsOf(next.headers.get('x-request-id') as string);
    expect(entry?.fields.notLoggedBefore).to.equal(80 - logged.length);
  });
});
