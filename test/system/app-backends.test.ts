import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { AppManifest } from '../../shared/src/api/apps/app-manifest.ts';
import type { TestClient, TestDaemon } from '../helpers/daemon.ts';
import { eventually } from '../helpers/desktop.ts';
import { finished } from '../helpers/file-operations.ts';
import { tgzOf } from '../helpers/tar-builder.ts';
import { startAppsBox, type AppsBox } from './apps-fixture.ts';
import { sh, zfsGet } from './zfs-fixture.ts';

// Backends as root on zfs-fuse with real accounts: each runs under its app's own uid, without
// privileges, is restarted when killed, and is reached only through the daemon with a backend token.
const example = JSON.parse(readFileSync('examples/hello-app/manifest.json', 'utf8')) as AppManifest;
const appId = example.id;

/** Pids of processes running as a uid (pgrep answers 1 when there is none). */
const pidsOf = (uid: number): number[] => {
  try {
    return sh(['pgrep', '-u', String(uid)])
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};
const status = (pid: number, field: string) => new RegExp(`^${field}:[ \\t]*(.*)$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]?.trim();

describe('app backends, supervised under their own accounts', function () {
  this.timeout(120_000);
  let apps: AppsBox;
  let box: TestDaemon;
  let admin: TestClient;
  let pool: string;
  let built: string;

  const install = async (body: Buffer, request: { pool?: string } = {}) => {
    const job = await apps.install(body, request);
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
  };
  const backendToken = async () => (await admin.api.apps.issueToken({ params: { appId }, body: { kind: 'backend', instanceId: 'window-0001' } })).token;
  const callBackend = (token: string) =>
    fetch(`${box.url}/api/app-backend/${appId}/visits`, { headers: { Authorization: `Bearer ${token}`, 'X-Cellar-Instance': 'window-0001' } });
  const running = (uid: number, what: string) =>
    eventually(
      async () => pidsOf(uid),
      (pids) => pids.length === 1,
      what,
    ).then((pids) => pids[0] as number);

  before(async () => {
    apps = await startAppsBox('cellarbk');
    ({ box, admin, pool, built } = apps);
  });
  after(() => apps?.close());

  it('runs the example backend under the app’s uid and gid, without groups, capabilities or new privileges', async () => {
    await install(readFileSync(built), { pool });
    const pid = await running(40000, 'the backend running as uid 40000');
    expect(status(pid, 'Uid')?.split(/\s+/)).to.deep.equal(['40000', '40000', '40000', '40000']);
    expect(status(pid, 'Gid')?.split(/\s+/)).to.deep.equal(['40000', '40000', '40000', '40000']);
    expect(status(pid, 'Groups')).to.equal('');
    expect(status(pid, 'NoNewPrivs')).to.equal('1');
    expect(status(pid, 'CapEff')).to.equal('0000000000000000');
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).to.include('server.js');
  });

  it('is reached through the daemon with a backend token only, and stores its output as app/<id>', async () => {
    const res = await callBackend(await backendToken());
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.include({ user: 'admin' });
    const host = (await admin.api.apps.issueToken({ params: { appId }, body: { kind: 'host', instanceId: 'window-0001' } })).token;
    expect((await callBackend(host)).status).to.equal(401);
    expect((await admin.request('GET', `/api/app-backend/${appId}/visits`)).status).to.equal(401);
    await eventually(
      async () => (await admin.api.logs.list({ query: { source: [`app/${appId}`] } })).items.map((e) => e.message),
      (messages) => messages.some((m) => m.startsWith('hello backend listening')),
      'the backend’s output in the log store',
    );
  });

  it('restarts the backend after kill -9', async () => {
    const before = await running(40000, 'the backend');
    sh(['kill', '-9', String(before)]);
    const after = await eventually(
      async () => pidsOf(40000),
      (pids) => pids.length === 1 && pids[0] !== before,
      'a new backend process',
    );
    expect(after[0]).to.not.equal(before);
    await eventually(
      async () => (await callBackend(await backendToken())).status,
      (s) => s === 200,
      'the restarted backend answering',
    );
  });

  it('cannot read another app’s data: each app’s folder is its own account’s alone', async () => {
    await install(
      tgzOf([
        { name: 'manifest.json', body: JSON.stringify({ ...example, id: 'org.example.other' }) },
        { name: 'icon.svg', body: readFileSync('examples/hello-app/icon.svg') },
        { name: 'frontend/', type: 'dir' },
        { name: 'frontend/index.html', body: '<!doctype html><title>other</title>' },
        { name: 'backend/', type: 'dir' },
        { name: 'backend/server.js', body: readFileSync('examples/hello-app/backend/server.js') },
        { name: 'backend/package.json', body: readFileSync('examples/hello-app/backend/package.json') },
      ]),
    );
    await running(40001, 'the other app’s backend');
    const secret = path.join(zfsGet('mountpoint', `${pool}/apps/org.example.other`), 'data', 'secret.txt');
    writeFileSync(secret, 'the other app only');
    sh(['chown', '40001:40001', secret]);
    // The first app's identity exactly as its backend has it.
    const asFirstApp = ['setpriv', '--reuid=40000', '--regid=40000', '--clear-groups', '--no-new-privs', '--', 'cat', secret];
    expect(() => sh(asFirstApp)).to.throw(/Permission denied|exit/i);
  });

  it('stops the backend when the app is switched off and starts it again when switched on; uninstall stops it for good', async () => {
    await admin.api.apps.update({ params: { appId }, body: { enabled: false } });
    await eventually(
      async () => pidsOf(40000),
      (pids) => pids.length === 0,
      'the backend stopped',
    );
    expect((await admin.request('GET', `/api/app-backend/${appId}/visits`)).status).to.equal(401);
    await admin.api.apps.update({ params: { appId }, body: { enabled: true } });
    await running(40000, 'the backend again');
    const job = await finished(admin, (await admin.api.apps.uninstall({ params: { appId }, query: { data: 'delete' } })).id, 60_000);
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    expect(pidsOf(40000)).to.deep.equal([]);
  });
});
