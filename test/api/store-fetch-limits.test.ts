import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { startGitHttp, startGitHttps, type LoopbackServer, type Pace } from '../helpers/git-servers.ts';
import { appFolder, catalogBranch, ended } from '../helpers/store-catalogs.ts';

const maxBytes = 300_000;

/**
 * What a catalog fetch refuses, with the real git client against loopback git servers: a
 * repository larger than the cap (its objects, or a checkout that unpacks far beyond its small
 * pack), and an https catalog that redirects to plain http.
 */
describe('store: catalog fetches are capped in size and never downgraded from https to http', function () {
  this.timeout(120_000);
  let work: string;
  let git: LoopbackServer;
  let https: LoopbackServer;
  let slow: LoopbackServer;
  // 100 kB a second: the big repository's objects would take six seconds to arrive in full.
  const pace: Pace = { bytesPerSecond: 100_000, sent: [] };
  let box: TestDaemon;
  let admin: TestClient;
  const gitRoot = () => path.join(work, 'git');

  /** A plain repository with one file on the branch `catalog`. */
  const repoWith = (name: string, body: Buffer) => {
    const dir = path.join(gitRoot(), name);
    mkdirSync(dir, { recursive: true });
    const run = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.org', '-C', dir, ...args], {
        env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
        stdio: 'ignore',
      });
    run('init', '-q', '-b', 'catalog');
    writeFileSync(path.join(dir, 'blob.bin'), body);
    run('add', 'blob.bin');
    run('commit', '-q', '-m', 'big');
  };
  /** Adds a custom catalog, fetches it and answers the job and the catalog as the Store shows them. */
  const addAndFetch = async (url: string) => {
    const added = await admin.api.store.addCatalog({ body: { url } });
    const job = await ended(admin, (await admin.api.store.sync({ params: { key: added.key } })).id, 60_000);
    const catalog = (await admin.api.store.state()).catalogs.find((c) => c.key === added.key)!;
    const copies = readdirSync(path.join(box.dataDir, 'store', 'catalogs', String(added.key))).filter((e) => e.startsWith('copy-'));
    return { job, catalog, copies };
  };

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'cellar-store-limits-'));
    await catalogBranch(gitRoot(), 'small', 'catalog', {
      name: 'Small',
      apps: [{ versions: [{ folder: appFolder(work, { id: 'org.example.small', version: '1.0.0' }) }] }],
    });
    // Objects beyond the cap: random bytes do not compress.
    repoWith('big', randomBytes(2 * maxBytes));
    // A pack of a few kilobytes whose checkout is 30 times the cap.
    repoWith('bomb', Buffer.alloc(30 * maxBytes));
    const key = path.join(work, 'key.pem');
    const cert = path.join(work, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1'].concat([
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ]),
      { stdio: 'ignore' },
    );
    git = await startGitHttp(gitRoot());
    slow = await startGitHttp(gitRoot(), pace);
    https = await startGitHttps(gitRoot(), { key: readFileSync(key), cert: readFileSync(cert) }, git.url);
    box = await startTestDaemon({}, { store: { projectCatalogs: [], fetchTimeoutMs: 30_000, maxCatalogBytes: maxBytes, gitCaFile: cert } });
    admin = await box.signIn();
  });
  after(async () => {
    await box?.close();
    await git?.close();
    await https?.close();
    await slow?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('fetches a catalog under the cap, over https as over http', async () => {
    for (const url of [`${git.url}/small/.git`, `${https.url}/small/.git`]) {
      const { job, catalog, copies } = await addAndFetch(url);
      expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
      expect(catalog).to.include({ state: 'ok', apps: 1 });
      expect(copies).to.have.length(1);
    }
  });

  it('refuses a repository beyond the cap, in its objects or in its checkout, and keeps nothing of it', async () => {
    for (const name of ['big', 'bomb']) {
      const { job, catalog, copies } = await addAndFetch(`${git.url}/${name}/.git`);
      expect([job.state, job.error?.code], name).to.deep.equal(['failed', 'store.fetch.too_large']);
      expect(job.error?.params).to.deep.equal({ limit: maxBytes });
      expect(catalog.state).to.equal('failed');
      expect(catalog.lastError?.code).to.equal('store.fetch.too_large');
      expect(copies, name).to.deep.equal([]);
    }
  });

  it('stops git while it downloads once the objects pass the cap, before the server sent them all', async () => {
    const { job, copies } = await addAndFetch(`${slow.url}/big/.git`);
    expect([job.state, job.error?.code]).to.deep.equal(['failed', 'store.fetch.too_large']);
    expect(copies).to.deep.equal([]);
    // The largest answer (the objects) ended early: the box hung up near the cap (git's own files in the folder count too), far from the 600 kB.
    expect(Math.max(...pace.sent))
      .to.be.above(maxBytes / 2)
      .and.below(1.6 * maxBytes);
  });

  it('never follows an https catalog to plain http', async () => {
    const { job, catalog, copies } = await addAndFetch(`${https.url}/redirect/small/.git`);
    expect([job.state, job.error?.code]).to.deep.equal(['failed', 'store.fetch.failed']);
    // git's own words: the redirect named a transport this catalog may not use.
    expect(catalog.lastError?.detail).to.match(/Protocol "http" not supported or disabled/);
    expect(catalog.apps).to.equal(0);
    expect(copies).to.deep.equal([]);
  });
});
