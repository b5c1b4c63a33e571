import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { api } from '../../shared/src/api/index.ts';
import type { RouteDef } from '../../shared/src/api/route.ts';
import { adminCaller, startDaemonProcess, type DaemonProcess } from '../helpers/daemon-process.ts';

/** Values for the path parameters of the storage and homes routes: plausible names that do not exist. */
const sampleParams: Record<string, string> = {
  pool: 'tank',
  name: 'tank',
  dataset: 'tank%2Fdata',
  snapshot: 'tank%2Fdata%40snap',
  id: '1',
  username: 'admin',
  shareId: '1',
};

function urlOf(route: RouteDef): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => sampleParams[name] ?? '1');
}

/**
 * A laptop without ZFS, Samba, OpenSSH, smartctl or journalctl (issue 11): the daemon runs with
 * a PATH holding none of them. Storage and homes answer 503 host.tool.missing with what to
 * install, never a 500, and every other area keeps working.
 */
describe('system: a machine without the host tools', function () {
  this.timeout(60_000);
  let box: DaemonProcess;
  let call: Awaited<ReturnType<typeof adminCaller>>;
  const emptyBin = mkdtempSync(path.join(tmpdir(), 'cellar-no-tools-'));

  before(async () => {
    box = await startDaemonProcess({ env: { PATH: emptyBin } });
    call = await adminCaller(box.base);
  });
  after(async () => {
    await box?.close();
    rmSync(emptyBin, { recursive: true, force: true });
  });

  it('answers every storage, homes and versions operation without a 5xx other than 503 host.tool.missing, naming the package', async () => {
    const routes = [...Object.values(api.storage), ...Object.values(api.homes), ...Object.values(api.fileVersions)] as RouteDef[];
    const missing: string[] = [];
    for (const route of routes) {
      const res = await call(route.method, urlOf(route), route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
      const body = (await res.json().catch(() => null)) as { code?: string; params?: { package?: string; feature?: string } } | null;
      expect(res.status, `${route.id}: ${JSON.stringify(body)}`).not.to.equal(500);
      if (res.status >= 500) {
        expect(body, route.id).to.deep.include({ code: 'host.tool.missing' });
        expect(body?.params?.package, route.id).to.be.a('string').and.not.equal('');
        missing.push(route.id);
      }
    }
    // The lists a person opens first say what to install.
    for (const id of ['storage.pools', 'storage.schedules', 'homes.overview']) expect(missing, id).to.include(id);
    const pools = (await (await call('GET', '/api/storage/pools')).json()) as { params: Record<string, string> };
    expect(pools.params).to.deep.include({ feature: 'ZFS', package: 'zfsutils-linux' });
    expect(pools.params.tool).to.be.oneOf(['zfs', 'zpool']);
  });

  it('says the reverse proxy needs nginx, and answers its changes with what to install', async () => {
    const settings = (await (await call('GET', '/api/system/proxy')).json()) as { nginx: { state: string; package: string | null } };
    expect(settings.nginx).to.deep.equal({ state: 'missing', package: 'nginx' });
    const host = { domains: ['cam.local'], target: { scheme: 'http', host: '127.0.0.1', port: 9 }, tls: { mode: 'none' } };
    const refused = await call('POST', '/api/system/proxy/hosts', host);
    expect(refused.status).to.equal(503);
    expect(((await refused.json()) as { params: Record<string, string> }).params).to.deep.include({ tool: 'nginx', package: 'nginx' });
    const after = (await (await call('GET', '/api/system/proxy')).json()) as { hosts: unknown[] };
    expect(after.hosts).to.deep.equal([]);
  });

  it('says on Overview that SMB sessions need smbstatus, naming the package, and still lists who is signed in', async () => {
    const res = await call('GET', '/api/system/sessions');
    expect(res.status).to.equal(200);
    const sessions = (await res.json()) as { desktop: { username: string }[]; smb: unknown };
    expect(sessions.smb).to.deep.equal({ state: 'missing', tool: 'smbstatus', package: 'samba' });
    expect(sessions.desktop.map((u) => u.username)).to.include('admin');
  });

  it('keeps users, shares, files, logs and the desktop working', async () => {
    expect((await call('GET', '/api/users')).status).to.equal(200);
    const user = await call('POST', '/api/users', { username: 'notools', password: 'a long enough password 1', displayName: 'No tools' });
    expect(user.status, await user.clone().text()).to.equal(201);
    const folder = mkdtempSync(path.join(tmpdir(), 'cellar-no-tools-share-'));
    try {
      writeFileSync(path.join(folder, 'hello.txt'), 'hello');
      const share = await call('POST', '/api/shares', { name: 'NoTools', hostPath: folder });
      expect(share.status, await share.clone().text()).to.equal(201);
      const { id } = (await share.json()) as { id: number };
      const list = (await (await call('GET', `/api/files/${id}/list?path=`)).json()) as { items: { name: string }[] };
      expect(list.items.map((e) => e.name)).to.deep.equal(['hello.txt']);
      expect((await call('GET', '/api/logs?limit=5')).status).to.equal(200);
      expect((await call('GET', '/api/desktop')).status).to.equal(200);
      expect((await call('GET', '/api/health')).status).to.equal(200);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
