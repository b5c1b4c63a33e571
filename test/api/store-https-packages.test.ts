import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAppPackage } from '../../build/scripts/build-app-package.js';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import type { StoreState } from '../../shared/src/api/store/store.ts';
import { adminCaller, startDaemonProcess, type AdminCaller, type DaemonProcess } from '../helpers/daemon-process.ts';
import { startGitHttp, type LoopbackServer } from '../helpers/git-servers.ts';
import { sleep } from '../helpers/jobs.ts';
import { appFolder, catalogBranch } from '../helpers/store-catalogs.ts';

const token = 'reader:pa55-Wh1sper-9f3k';
const tokenSecret = token.split(':')[1] as string;

/**
 * Packages at https addresses of a private catalog: a loopback HTTPS server (its own self-signed
 * certificate, which the daemon process trusts through NODE_EXTRA_CA_CERTS) that asks for Basic
 * authentication, and the catalog's read token `user:token`.
 */
describe('store: packages at https addresses with the catalog read token', function () {
  this.timeout(120_000);
  let work: string;
  let git: LoopbackServer;
  let https: Server;
  let box: DaemonProcess;
  let call: AdminCaller;
  let catalogKey: number;
  const served: { path: string; auth: string | undefined }[] = [];

  const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;
  const state = async () => json<StoreState>(await call('GET', '/api/store'));
  const ended = async (id: number): Promise<Job> => {
    for (const deadline = Date.now() + 30_000; ; await sleep(50)) {
      const job = await json<Job>(await call('GET', `/api/jobs/${id}`));
      if (job.state !== 'queued' && job.state !== 'running') return job;
      if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state}`);
    }
  };
  const takePackage = (version: string) => call('POST', `/api/store/catalogs/custom-${catalogKey}/apps/org.example.remote/${version}/package`);

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cellar-store-https-'));
    const key = path.join(work, 'key.pem');
    const cert = path.join(work, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert].concat([
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        // localhost too: a second host name on loopback, for a package address on another host than the catalog's.
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ]),
      { stdio: 'ignore' },
    );
    const folder = appFolder(work, { id: 'org.example.remote', version: '1.0.0', description: 'Fetched from elsewhere' });
    const good = readFileSync(await buildAppPackage(folder, mkdtempSync(path.join(work, 'pkg-'))));
    // Same size, other bytes: only the hash can tell.
    const bad = Buffer.from(good);
    bad[bad.length - 1] = bad[bad.length - 1]! ^ 0xff;
    const expected = `Basic ${Buffer.from(token).toString('base64')}`;
    https = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      served.push({ path: req.url ?? '', auth: req.headers.authorization });
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="packages"' }).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(req.url === '/packages/remote-1.0.0' ? good : bad);
    });
    const port = await new Promise<number>((resolve) => https.listen(0, '127.0.0.1', () => resolve((https.address() as AddressInfo).port)));
    const base = `https://127.0.0.1:${port}/packages`;
    await catalogBranch(path.join(work, 'git'), 'private', 'catalog', {
      name: 'Private',
      apps: [
        {
          versions: [
            { folder, url: `${base}/remote-1.0.0` },
            { folder: appFolder(work, { id: 'org.example.remote', version: '1.0.1' }), url: `${base}/remote-1.0.1` },
            // Named by the index on another host (the same server, reached as localhost): the token must not go there.
            { folder: appFolder(work, { id: 'org.example.remote', version: '1.0.2' }), url: `https://localhost:${port}/packages/remote-1.0.2` },
          ],
        },
      ],
    });
    const index = JSON.parse(readFileSync(path.join(work, 'git', 'private', 'index.json'), 'utf8')) as {
      apps: { versions: { package: { sha256: string } }[] }[];
    };
    // The package served is the one the index names (build-app-package is reproducible).
    expect(index.apps[0]!.versions[0]!.package.sha256).to.equal(createHash('sha256').update(good).digest('hex'));
    git = await startGitHttp(path.join(work, 'git'));
    box = await startDaemonProcess({ env: { NODE_EXTRA_CA_CERTS: cert, BOX_LOG_LEVEL: 'debug' } });
    call = await adminCaller(box.base);
    const added = await call('POST', '/api/store/catalogs', { url: `${git.url}/private/.git`, name: 'Private' });
    expect(added.status).to.equal(200);
    catalogKey = (await json<{ key: number }>(added)).key;
    for (let i = 0; (await state()).catalogs.find((c) => c.key === catalogKey)?.state !== 'ok'; i++) {
      if (i > 400) throw new Error(`the catalog was not fetched: ${JSON.stringify(await state())}`);
      await sleep(50);
    }
  });

  after(async () => {
    await box?.close();
    await git?.close();
    https?.closeAllConnections();
    await new Promise((resolve) => (https ? https.close(resolve) : resolve(undefined)));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('without the read token the download answers a clear problem naming the token', async () => {
    const res = await takePackage('1.0.0');
    expect(res.status).to.equal(502);
    expect(res.headers.get('content-type')).to.contain('application/problem+json');
    const problem = await json<{ code: string; params: { status: number }; detail: string }>(res);
    expect(problem).to.deep.include({ code: 'store.package.download_failed', params: { status: 401 } });
    expect(problem.detail).to.contain('read token');
    expect(served.at(-1)).to.deep.equal({ path: '/packages/remote-1.0.0', auth: undefined });
  });

  it('with the token the package is fetched, checked against its hash and installable', async () => {
    const set = await call('PATCH', `/api/store/catalogs/${catalogKey}`, { readToken: token });
    expect(set.status).to.equal(200);
    expect(await json<{ readToken: boolean }>(set)).to.include({ readToken: true });
    const res = await takePackage('1.0.0');
    expect(res.status).to.equal(200);
    const preview = await json<{ packageId: string; action: string; manifest: { id: string; version: string } }>(res);
    expect(served.at(-1)).to.deep.equal({ path: '/packages/remote-1.0.0', auth: `Basic ${Buffer.from(token).toString('base64')}` });
    expect(preview).to.include({ action: 'install' });
    expect(preview.manifest).to.include({ id: 'org.example.remote', version: '1.0.0' });
    const install = await call('POST', `/api/apps/packages/${preview.packageId}/install`, { pool: 'tank' });
    expect(install.status, await install.clone().text()).to.be.oneOf([200, 202]);
    const job = await ended((await json<{ id: number }>(install)).id);
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    const apps = await json<{ apps: { id: string; manifest: { version: string } }[] }>(await call('GET', '/api/apps'));
    expect(apps.apps.find((a) => a.id === 'org.example.remote')?.manifest.version).to.equal('1.0.0');
  });

  it('a package whose bytes differ from the index is store.package.hash_mismatch', async () => {
    const res = await takePackage('1.0.1');
    expect(res.status).to.equal(422);
    expect(await json<{ code: string }>(res)).to.include({ code: 'store.package.hash_mismatch' });
    expect(served.at(-1)?.path).to.equal('/packages/remote-1.0.1');
  });

  it('never sends the token to a host other than the catalog’s, whatever address the index names', async () => {
    const res = await takePackage('1.0.2');
    expect(res.status).to.equal(502);
    const problem = await json<{ code: string; params: { status: number }; detail: string }>(res);
    expect(problem).to.deep.include({ code: 'store.package.download_failed', params: { status: 401 } });
    expect(problem.detail).to.contain("only to the catalog's own host (127.0.0.1)");
    // The request reached the server (its certificate names localhost too), without any Authorization.
    expect(served.at(-1)).to.deep.equal({ path: '/packages/remote-1.0.2', auth: undefined });
  });

  it('never shows the token in GET /api/store nor writes it to the log store', async () => {
    const answer = await (await call('GET', '/api/store')).text();
    expect(answer).to.contain(`"readToken":true`);
    const logs = await (await call('GET', '/api/logs/export')).text();
    // The log store holds this run's store entries (the token was set and used), so its absence means something.
    expect(logs).to.contain('store catalog changed');
    for (const text of [answer, logs, box.stderr()]) {
      expect(text).not.to.contain(tokenSecret);
      expect(text).not.to.contain(Buffer.from(token).toString('base64'));
    }
  });
});
