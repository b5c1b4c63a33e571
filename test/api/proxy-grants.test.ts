import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';

/** The cookie of a sign-in-protected host across a daemon restart, and its end with the box session. */
describe('proxy API: sign-in cookies of protected hosts survive a restart and end with the box session', function () {
  this.timeout(120_000);
  let box: TestDaemon;

  after(() => box?.close());

  it('keeps a hash of the cookie with its expiry, lets it in after a restart, and drops it on sign-out', async () => {
    box = await startTestDaemon();
    const admin = await box.signIn();
    const created = await admin.api.proxy.createHost({
      body: {
        domains: ['app.local'],
        target: { scheme: 'http', host: '127.0.0.1', port: 9 },
        tls: { mode: 'none' },
        signIn: { enabled: true, userIds: [], groupIds: [] },
      },
    });
    const hostId = created.hosts[0]?.id ?? 0;
    const ticket = await admin.api.proxy.ticket({ body: { url: 'http://app.local:8080/inbox' } });
    const asNginx = (url: string, path: string, headers: Record<string, string> = {}) =>
      fetch(`${url}${path}`, { headers: { 'X-Proxy-Host-Id': String(hostId), ...headers }, redirect: 'manual' });
    const redeemed = await asNginx(box.url, `/api/proxy/redeem?ticket=${new URL(ticket.url).searchParams.get('ticket')}`);
    expect(redeemed.status).to.equal(302);
    const cookie = (redeemed.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const value = cookie.split('=')[1] ?? '';
    expect(value).to.have.length.greaterThan(30);
    expect((await asNginx(box.url, '/api/proxy/authorize', { Cookie: cookie })).status).to.equal(204);

    const rows = await box.daemon.db.query<{ token_hash: string; sid: string; expires_at: number }>('SELECT * FROM proxy_grants', {
      type: QueryTypes.SELECT,
    });
    expect(rows).to.have.length(1);
    expect(JSON.stringify(rows)).not.to.include(value);
    expect(rows[0]?.expires_at).to.be.within(Date.now() + 23 * 3600_000, Date.now() + 25 * 3600_000);

    const { dataDir } = box;
    const session = { Cookie: admin.cookieHeader(), 'X-CSRF-Token': admin.csrfToken ?? '' };
    await box.close({ keepData: true });
    box = await startTestDaemon({ dataDir });
    expect((await asNginx(box.url, '/api/proxy/authorize', { Cookie: cookie })).status).to.equal(204);

    const out = await fetch(`${box.url}/api/auth/logout`, { method: 'POST', headers: session });
    expect(out.status).to.equal(204);
    const refused = await asNginx(box.url, '/api/proxy/authorize', { Cookie: cookie });
    expect(refused.status).to.equal(401);
    expect(refused.headers.get('x-cellar-auth')).to.equal('signin');
    expect(await box.daemon.db.query('SELECT * FROM proxy_grants', { type: QueryTypes.SELECT })).to.deep.equal([]);
  });
});
