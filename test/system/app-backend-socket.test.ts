import { lstatSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { AppManifest } from '../../shared/src/api/apps/app-manifest.ts';
import type { TestClient, TestDaemon } from '../helpers/daemon.ts';
import { eventually } from '../helpers/desktop.ts';
import { tgzOf } from '../helpers/tar-builder.ts';
import { startAppsBox, type AppsBox } from './apps-fixture.ts';
import { sh } from './zfs-fixture.ts';

// As root with a real app account: a backend that replaces every socket it can name with a link
// to another Unix socket (standing in for /run/docker.sock) must not get the daemon to connect there.
const example = JSON.parse(readFileSync('examples/hello-app/manifest.json', 'utf8')) as AppManifest;
const appId = 'org.example.swapper';

/**
 * Listens where the box says (the socket it hands over as fd 3, or the path older boxes named),
 * then tries to put a link to `decoy` at that path: the one named, or the one of its socket in
 * /proc/net/unix (bound as `<name>.new`, published as `<name>`).
 */
const swapper = (decoy: string) => `import { createServer } from 'node:http';
import { fstatSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
const decoy = ${JSON.stringify(decoy)};
const where = process.env.LISTEN_FDS === '1' ? { fd: 3 } : process.env.CELLAR_BACKEND_SOCKET;
createServer((req, res) => res.end(JSON.stringify({ who: 'backend' }))).listen(where, () => {
  const targets = [];
  if (process.env.CELLAR_BACKEND_SOCKET) targets.push(process.env.CELLAR_BACKEND_SOCKET);
  if (process.env.LISTEN_FDS === '1') {
    const inode = String(fstatSync(3).ino);
    const bound = readFileSync('/proc/net/unix', 'utf8').split('\\n').map((l) => l.trim().split(/\\s+/)).find((f) => f[6] === inode)?.[7];
    if (bound) targets.push(bound, bound.replace(/\\.new$/, ''));
  }
  for (const target of targets) {
    try {
      rmSync(target, { force: true });
      symlinkSync(decoy, target);
      console.log('swapped ' + target);
    } catch (err) {
      console.log('could not swap ' + target + ': ' + err.code);
    }
  }
  console.log('swapper ready after ' + targets.length + ' tries');
});
`;

describe('app backends, the socket the daemon connects to', function () {
  this.timeout(120_000);
  let apps: AppsBox;
  let box: TestDaemon;
  let admin: TestClient;
  let pool: string;
  let work: string;
  let decoy: http.Server;
  let decoyHits = 0;

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'cellar-decoy-'));
    decoy = http.createServer((req, res) => {
      decoyHits++;
      res.end(JSON.stringify({ who: 'decoy' }));
    });
    await new Promise<void>((resolve) => decoy.listen(path.join(work, 'decoy.sock'), resolve));
    apps = await startAppsBox('cellarsk');
    ({ box, admin, pool } = apps);
  });
  after(async () => {
    await apps?.close();
    decoy?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('is made by the daemon in a folder only root can enter: a backend that links its socket elsewhere still gets the requests', async () => {
    const job = await apps.install(
      tgzOf([
        {
          name: 'manifest.json',
          body: JSON.stringify({ ...example, id: appId, storage: [], backend: { command: ['node', 'server.mjs'], listen: 'unix-socket' } }),
        },
        { name: 'icon.svg', body: readFileSync('examples/hello-app/icon.svg') },
        { name: 'frontend/', type: 'dir' },
        { name: 'frontend/index.html', body: '<!doctype html><title>swapper</title>' },
        { name: 'backend/', type: 'dir' },
        { name: 'backend/server.mjs', body: swapper(path.join(work, 'decoy.sock')) },
      ]),
      { pool },
    );
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    const log = await eventually(
      async () => (await admin.api.logs.list({ query: { source: [`app/${appId}`] } })).items.map((e) => e.message),
      (messages) => messages.some((m) => m.startsWith('swapper ready')),
      'the swapper’s tries',
    );
    const { token } = await admin.api.apps.issueToken({ params: { appId }, body: { kind: 'backend', instanceId: 'window-0001' } });
    const res = await fetch(`${box.url}/api/app-backend/${appId}/who`, { headers: { Authorization: `Bearer ${token}`, 'X-Cellar-Instance': 'window-0001' } });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ who: 'backend' });
    expect(decoyHits).to.equal(0);

    // It found its socket and tried, and could not.
    expect(log).to.include('swapper ready after 2 tries');
    expect(log.filter((m) => m.startsWith('swapped '))).to.deep.equal([]);
    expect(log.filter((m) => m.startsWith('could not swap ')).every((m) => m.endsWith(': EACCES'))).to.equal(true);

    // The folder is root's alone, and the app's account cannot even list it.
    const folder = path.join(box.dataDir, 'apps', 'sockets');
    const stat = lstatSync(folder);
    expect([stat.isDirectory(), stat.uid, stat.mode & 0o777]).to.deep.equal([true, 0, 0o700]);
    expect(() => sh(['setpriv', '--reuid=40000', '--regid=40000', '--clear-groups', '--no-new-privs', '--', 'ls', folder])).to.throw();
  });
});
