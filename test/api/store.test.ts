import { expect } from 'chai';
import { appendFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { CatalogSource } from '../../build/scripts/build-catalog.ts';
import { storeRoutes } from '../../shared/src/api/store/store.ts';
import { send } from '../../shared/src/client.ts';
import { checkedFetch, expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { contractChecker } from '../helpers/openapi-check.ts';
import { startGitHttp, startStuckServer, type LoopbackServer } from '../helpers/git-servers.ts';
import { sleep } from '../helpers/jobs.ts';
import { appFolder, catalogBranch, ended, pngBytes, testSigningKey } from '../helpers/store-catalogs.ts';

describe('store: catalogs from git, verified copies, apps and packages', function () {
  this.timeout(120_000);
  let work: string;
  let git: LoopbackServer;
  let stuck: LoopbackServer;
  let box: TestDaemon;
  let admin: TestClient;
  let key: ReturnType<typeof testSigningKey>;
  let stable: CatalogSource;
  const gitRoot = () => path.join(work, 'git');
  const projectKey = async () => (await admin.api.store.state()).catalogs.find((c) => c.id === 'project')!;
  const sync = async (k: number) => ended(admin, (await admin.api.store.sync({ params: { key: k } })).id);

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'cellar-store-'));
    key = testSigningKey(work);
    const shot = path.join(work, 'home.png');
    writeFileSync(shot, pngBytes);
    stable = {
      name: 'Project',
      apps: [
        {
          source: 'https://example.org/notes',
          versions: [
            { folder: appFolder(work, { id: 'org.example.notes', version: '1.0.0', dataVersion: 1, description: 'Keeps notes' }) },
            {
              folder: appFolder(work, { id: 'org.example.notes', version: '1.1.0', dataVersion: 2, description: 'Keeps notes' }),
              screenshots: { 'home.png': shot },
            },
          ],
        },
        { versions: [{ folder: appFolder(work, { id: 'org.example.future', version: '1.0.0', minBoxVersion: '99.0.0' }) }] },
        {
          versions: [
            { folder: appFolder(work, { id: 'org.example.clock', version: '1.0.0', author: 'Clockmakers' }) },
            { folder: appFolder(work, { id: 'org.example.clock', version: '1.1.0', author: 'Clockmakers' }) },
          ],
        },
      ],
    };
    await catalogBranch(gitRoot(), 'project', 'catalog', stable, key.signing);
    const next = structuredClone(stable);
    next.apps[0]!.versions.push({ folder: appFolder(work, { id: 'org.example.notes', version: '2.0.0', dataVersion: 2 }) });
    await catalogBranch(gitRoot(), 'project', 'catalog-next', next, key.signing);
    await catalogBranch(gitRoot(), 'custom', 'catalog', { name: 'Custom', apps: [stable.apps[2]!] });
    git = await startGitHttp(gitRoot());
    stuck = await startStuckServer();
    box = await startTestDaemon(
      { trustedKeysFile: key.keysFile },
      { store: { projectCatalogs: [{ id: 'project', name: 'Project', url: `${git.url}/project/.git` }], fetchTimeoutMs: 10_000 } },
    );
    admin = await box.signIn();
  });
  after(async () => {
    await box?.close();
    await git?.close();
    await stuck?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('lists the project catalog and the settings with the next check time and a delay under an hour', async () => {
    const state = await admin.api.store.state();
    const project = state.catalogs.find((c) => c.id === 'project');
    expect(project).to.include({ builtIn: true, verified: true, enabled: true, state: 'new', apps: 0 });
    expect(state.settings).to.include({ policy: 'notify', dailyTime: '03:00', channel: 'stable' });
    expect(state.settings.delayMinutes).to.be.within(0, 59);
    const next = Date.parse(state.settings.nextCheckAt);
    expect(next)
      .to.be.greaterThan(Date.now())
      .and.at.most(Date.now() + 25 * 3600_000);
  });

  it('fetches the signed project catalog, lists its apps at the newest version this box runs, and searches them', async () => {
    const job = await sync((await projectKey()).key);
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    const project = await projectKey();
    expect(project).to.include({ state: 'ok', apps: 3, lastError: null });
    const all = (await admin.api.store.apps({ query: {} })).apps;
    // org.example.future needs a newer box: not listed.
    expect(all.map((a) => `${a.appId}@${a.version}`)).to.have.members(['org.example.notes@1.1.0', 'org.example.clock@1.1.0']);
    expect((await admin.api.store.apps({ query: { q: 'clockmakers' } })).apps.map((a) => a.appId)).to.deep.equal(['org.example.clock']);
    expect((await admin.api.store.apps({ query: { q: 'KEEPS' } })).apps.map((a) => a.appId)).to.deep.equal(['org.example.notes']);
    expect((await admin.api.store.apps({ query: { q: 'nothing-like-it' } })).apps).to.deep.equal([]);
    await expectProblem(admin.api.store.apps({ query: { catalog: 'nope' } }), 'store.catalog.not_found', 404);
  });

  it('shows an app page with every version, and serves icons and screenshots checked against the index with strict headers', async () => {
    const page = await admin.api.store.app({ params: { catalog: 'project', appId: 'org.example.notes' } });
    expect(page).to.include({ version: '1.1.0', runs: true, source: 'https://example.org/notes', installedVersion: null });
    expect(page.versions.map((v) => v.version)).to.deep.equal(['1.1.0', '1.0.0']);
    expect(page.screenshots).to.deep.equal(['home.png']);
    const future = await admin.api.store.app({ params: { catalog: 'project', appId: 'org.example.future' } });
    expect(future).to.include({ runs: false });
    for (const [urlPath, type] of [
      ['/api/store/catalogs/project/apps/org.example.notes/1.1.0/icon', 'image/svg+xml'],
      ['/api/store/catalogs/project/apps/org.example.notes/1.1.0/screenshots/home.png', 'image/png'],
    ] as const) {
      const res = await admin.request('GET', urlPath);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.contain(type);
      expect(res.headers.get('content-security-policy')).to.equal("default-src 'none'; sandbox");
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    }
    expect(
      Buffer.from(await (await admin.request('GET', '/api/store/catalogs/project/apps/org.example.notes/1.1.0/screenshots/home.png')).arrayBuffer()),
    ).to.deep.equal(pngBytes);
    await expectProblem(
      admin.api.store.screenshot({ params: { catalog: 'project', appId: 'org.example.notes', version: '1.0.0', name: 'home.png' } }),
      'store.image.not_found',
      404,
    );
    await expectProblem(admin.api.store.app({ params: { catalog: 'project', appId: 'org.example.none' } }), 'store.app.not_found', 404);
  });

  it('answers ranges (206) and revalidations (304) of icons and screenshots as the document describes them', async () => {
    // Request and answer both checked against the served document, as the typed client's calls are.
    const checked = { baseUrl: box.url, fetch: checkedFetch(admin.fetch, () => contractChecker(box.url), 'both') };
    const params = { catalog: 'project', appId: 'org.example.notes', version: '1.1.0', name: 'home.png' };
    const full = await send(checked, storeRoutes.screenshot, { params });
    expect(full.status).to.equal(200);
    const etag = full.headers.get('etag');
    expect(etag).to.match(/^"[0-9a-f]{64}"$/);
    expect(full.headers.get('accept-ranges')).to.equal('bytes');

    const part = await send(checked, storeRoutes.screenshot, { params, headers: { Range: 'bytes=0-7' } });
    expect(part.status).to.equal(206);
    expect(part.headers.get('content-range')).to.equal(`bytes 0-7/${pngBytes.length}`);
    expect(part.headers.get('content-type')).to.contain('image/png');
    expect(Buffer.from(await part.arrayBuffer())).to.deep.equal(pngBytes.subarray(0, 8));

    // Node's fetch adds Cache-Control: no-cache to a conditional request unless one is given, and Express's
    // file sending then answers in full; a browser revalidates with max-age=0.
    const revalidate = { 'Cache-Control': 'max-age=0' };
    const unchanged = await send(checked, storeRoutes.screenshot, { params, headers: { ...revalidate, 'If-None-Match': etag! } });
    expect(unchanged.status).to.equal(304);
    const iconParams = { catalog: 'project', appId: 'org.example.notes', version: '1.1.0' };
    const lastModified = (await send(checked, storeRoutes.icon, { params: iconParams })).headers.get('last-modified');
    const sinceDate = await send(checked, storeRoutes.icon, { params: iconParams, headers: { ...revalidate, 'If-Modified-Since': lastModified! } });
    expect(sinceDate.status).to.equal(304);
    expect(sinceDate.headers.get('etag')).to.be.a('string');

    // A range past the end is the contract's 416 with the file's length, not a server error.
    const past = await send(checked, storeRoutes.screenshot, { params, headers: { Range: `bytes=${pngBytes.length + 10}-` } });
    expect(past.status).to.equal(416);
    expect(past.headers.get('content-range')).to.equal(`bytes */${pngBytes.length}`);
    expect(await past.json()).to.include({ code: 'fs.range.not_satisfiable' });

    // Preconditions the document offers none of are ignored, as by the other file answers (send's own 412 was a 500).
    const preconditions: Record<string, string>[] = [{ 'If-Match': '"other"' }, { 'If-Unmodified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' }];
    for (const headers of preconditions) {
      const ignored = await send(checked, storeRoutes.screenshot, { params, headers });
      expect(ignored.status, JSON.stringify(headers)).to.equal(200);
    }
  });

  it('refuses a package whose bytes differ from the index, and one that needs a newer box', async () => {
    const project = await projectKey();
    const copy = path.join(box.dataDir, 'store', 'catalogs', String(project.key));
    const pkg = path.join(copy, readlinkSync(path.join(copy, 'current')), 'apps/org.example.clock/1.0.0/org.example.clock-1.0.0.serviceapp');
    appendFileSync(pkg, 'tampered');
    await expectProblem(
      admin.api.store.package({ params: { catalog: 'project', appId: 'org.example.clock', version: '1.0.0' } }),
      'store.package.hash_mismatch',
      422,
    );
    await expectProblem(
      admin.api.store.package({ params: { catalog: 'project', appId: 'org.example.future', version: '1.0.0' } }),
      'app.package.box_too_old',
      409,
    );
    // A fresh fetch brings a clean copy again.
    expect((await sync(project.key)).state).to.equal('succeeded');
  });

  it('installs an app from its catalog through the same preview and install; an older version with another dataVersion is refused', async () => {
    const preview = await admin.api.store.package({ params: { catalog: 'project', appId: 'org.example.notes', version: '1.1.0' } });
    expect(preview).to.include({ action: 'install' });
    expect(preview.manifest).to.include({ id: 'org.example.notes', version: '1.1.0' });
    const job = await ended(admin, (await admin.api.apps.install({ params: { packageId: preview.packageId }, body: { pool: 'tank' } })).id);
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    expect((await admin.api.store.app({ params: { catalog: 'project', appId: 'org.example.notes' } })).installedVersion).to.equal('1.1.0');
    await expectProblem(
      admin.api.store.package({ params: { catalog: 'project', appId: 'org.example.notes', version: '1.0.0' } }),
      'app.package.downgrade_unsupported',
      409,
    );
  });

  it('keeps the last verified copy when the signature is missing or made with an unknown key, and shows the failure', async () => {
    const before = await projectKey();
    await catalogBranch(gitRoot(), 'project', 'catalog', stable);
    let job = await sync(before.key);
    expect(job.state).to.equal('failed');
    expect(job.error?.code).to.equal('store.signature.invalid');
    let after = await projectKey();
    expect(after).to.include({ state: 'failed', commit: before.commit, apps: 3 });
    expect(after.lastError?.code).to.equal('store.signature.invalid');
    expect((await admin.api.store.apps({ query: { catalog: 'project' } })).apps).to.have.length(2);

    await catalogBranch(gitRoot(), 'project', 'catalog', stable, testSigningKey(work, 'stranger').signing);
    job = await sync(before.key);
    expect(job.error?.code).to.equal('store.signature.invalid');
    expect(job.error?.params).to.deep.include({ reason: 'unknown_key' });
    after = await projectKey();
    expect(after.commit).to.equal(before.commit);
  });

  it('refuses a fetched copy in which a file differs from the hash of its index', async () => {
    const before = await projectKey();
    await catalogBranch(gitRoot(), 'project', 'catalog', stable, key.signing);
    const repo = path.join(gitRoot(), 'project');
    appendFileSync(path.join(repo, 'apps/org.example.clock/1.1.0/icon.svg'), '<!-- changed -->');
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@localhost', 'commit', '-qam', 'tamper']);
    const job = await sync(before.key);
    expect(job.error?.code).to.equal('store.file.hash_mismatch');
    expect(job.error?.params).to.deep.equal({ path: 'apps/org.example.clock/1.1.0/icon.svg' });
    expect((await projectKey()).commit).to.equal(before.commit);
    await catalogBranch(gitRoot(), 'project', 'catalog', stable, key.signing);
    expect((await sync(before.key)).state).to.equal('succeeded');
  });

  it('adds a custom catalog as unverified, refuses to remove a project catalog, removes a custom one', async () => {
    const info = await admin.api.store.addCatalog({ body: { url: `${git.url}/custom/.git`, name: 'Custom' } });
    expect(info).to.include({ builtIn: false, verified: false, id: `custom-${info.key}`, deployKey: null });
    await expectProblem(admin.api.store.addCatalog({ body: { url: `${git.url}/custom/.git` } }), 'store.catalog.exists', 409);
    const job = await ended(admin, (await admin.api.jobs.list()).find((j) => j.kind === 'store.sync')!.id);
    expect(job.kind).to.equal('store.sync');
    let custom = (await admin.api.store.state()).catalogs.find((c) => c.key === info.key)!;
    for (let i = 0; custom.state !== 'ok' && i < 200; i++) {
      await sleep(25);
      custom = (await admin.api.store.state()).catalogs.find((c) => c.key === info.key)!;
    }
    expect(custom).to.include({ state: 'ok', apps: 1 });
    const listed = (await admin.api.store.apps({ query: { catalog: custom.id } })).apps;
    expect(listed.map((a) => [a.appId, a.verified])).to.deep.equal([['org.example.clock', false]]);
    await expectProblem(admin.api.store.removeCatalog({ params: { key: (await projectKey()).key } }), 'store.catalog.built_in', 409);
    await admin.api.store.removeCatalog({ params: { key: info.key } });
    expect((await admin.api.store.state()).catalogs.map((c) => c.key)).not.to.include(info.key);
    await expectProblem(admin.api.store.apps({ query: { catalog: custom.id } }), 'store.catalog.not_found', 404);
  });

  it('an SSH catalog gets a deploy key of its own (0600) shown with it; a failed fetch is shown with the catalog', async () => {
    const info = await admin.api.store.addCatalog({ body: { url: 'git@127.0.0.1:owner/private.git' } });
    expect(info.deployKey).to.match(/^ssh-ed25519 [A-Za-z0-9+/=]+ cellar-store-\d+$/);
    const keyFile = path.join(box.dataDir, 'store', 'catalogs', String(info.key), 'ssh', 'deploy_key');
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    const job = (await admin.api.jobs.list()).find((j) => j.kind === 'store.sync')!;
    expect((await ended(admin, job.id)).error?.code).to.equal('store.fetch.failed');
    const shown = (await admin.api.store.state()).catalogs.find((c) => c.key === info.key)!;
    expect(shown).to.include({ state: 'failed', deployKey: info.deployKey, verified: false });
    await admin.api.store.removeCatalog({ params: { key: info.key } });
    // git's ssh:// form with a port is taken; a host that would read as an ssh option is not.
    const ported = await admin.api.store.addCatalog({ body: { url: 'ssh://git@127.0.0.1:2222/owner/private.git' } });
    expect(ported).to.include({ name: 'private' });
    expect(ported.deployKey).to.match(/^ssh-ed25519 /);
    await ended(admin, (await admin.api.jobs.list()).find((j) => j.kind === 'store.sync')!.id);
    await admin.api.store.removeCatalog({ params: { key: ported.key } });
    for (const url of ['ssh://-oProxyCommand=touch/x', 'ssh://git@-oProxyCommand=x:22/a', '-oProxyCommand=x@host:a.git'])
      await expectProblem(admin.api.store.addCatalog({ body: { url } }), 'request.body.invalid', 400);
  });

  it('switching a catalog off hides its apps; switching it on fetches it at once; the read token is kept but never shown', async () => {
    const project = await projectKey();
    const off = await admin.api.store.updateCatalog({ params: { key: project.key }, body: { enabled: false, readToken: 'reader:s3cret' } });
    expect(off).to.include({ enabled: false, readToken: true });
    expect(JSON.stringify(await admin.api.store.state())).not.to.contain('s3cret');
    expect((await admin.api.store.apps({ query: {} })).apps).to.deep.equal([]);
    const on = await admin.api.store.updateCatalog({ params: { key: project.key }, body: { enabled: true, readToken: '' } });
    expect(on).to.include({ enabled: true, readToken: false });
    const jobs = (await admin.api.jobs.list()).filter((j) => j.kind === 'store.sync');
    expect((await ended(admin, jobs[0]!.id)).state).to.equal('succeeded');
  });

  it('a stuck server (accepts, never answers) times out without delaying another catalog', async () => {
    const stuckInfo = await admin.api.store.addCatalog({ body: { url: `${stuck.url}/stuck/.git` } });
    // Without a name the catalog is named after its repository.
    expect(stuckInfo.name).to.equal('stuck');
    const stuckJob = (await admin.api.jobs.list()).find((j) => j.kind === 'store.sync')!;
    const project = await sync((await projectKey()).key);
    expect(project.state).to.equal('succeeded');
    // The other catalog's fetch ended while the stuck one still waits for its server.
    expect((await admin.api.jobs.get({ params: { id: stuckJob.id } })).state).to.equal('running');
    expect((await admin.api.store.state()).catalogs.find((c) => c.key === stuckInfo.key)?.state).to.equal('fetching');
    const failed = await ended(admin, stuckJob.id);
    expect(failed.error?.code).to.equal('store.fetch.failed');
    expect(failed.error?.params).to.deep.equal({ reason: 'timeout' });
    const shown = (await admin.api.store.state()).catalogs.find((c) => c.key === stuckInfo.key)!;
    expect(shown).to.include({ state: 'failed' });
    expect(shown.lastError?.code).to.equal('store.fetch.failed');
    await admin.api.store.removeCatalog({ params: { key: stuckInfo.key } });
  });

  it('a channel switch fetches every catalog at once from catalog-next', async () => {
    const settings = await admin.api.store.settings({ body: { channel: 'beta' } });
    expect(settings.channel).to.equal('beta');
    const syncs = (await admin.api.jobs.list()).filter((j) => j.kind === 'store.sync' && (j.state === 'queued' || j.state === 'running'));
    expect(syncs).to.have.length(1);
    expect((await ended(admin, syncs[0]!.id)).state).to.equal('succeeded');
    const notes = (await admin.api.store.apps({ query: { q: 'org.example.notes' } })).apps[0];
    expect(notes).to.include({ version: '2.0.0', installedVersion: '1.1.0' });
    const state = await admin.api.store.state();
    expect(state.updates).to.deep.include({ appId: 'org.example.notes', catalog: 'project', installedVersion: '1.1.0', version: '2.0.0', policy: 'notify' });
  });

  it('the check installs updates whose policy is automatic and only announces those of notify', async () => {
    const clock = await admin.api.store.package({ params: { catalog: 'project', appId: 'org.example.clock', version: '1.0.0' } });
    expect((await ended(admin, (await admin.api.apps.install({ params: { packageId: clock.packageId }, body: {} })).id)).state).to.equal('succeeded');
    await admin.api.apps.setUpdatePolicy({ params: { appId: 'org.example.notes' }, body: { policy: 'automatic' } });
    const check = await ended(admin, (await admin.api.store.check()).id, 60_000);
    expect(check.state, JSON.stringify(check.error)).to.equal('succeeded');
    const installed = new Map((await admin.api.apps.list()).apps.map((a) => [a.id, a.manifest.version]));
    expect(installed.get('org.example.notes')).to.equal('2.0.0');
    expect(installed.get('org.example.clock')).to.equal('1.0.0');
    const announced = async () => (await admin.api.notifications.list()).items.filter((n) => n.type === 'store.update');
    const notes = await announced();
    expect(notes.map((n) => n.title)).to.deep.equal(['org.example.clock 1.1.0 is available']);
    // A code and params the web translates; the title and body are the English fallback.
    expect(notes[0]).to.deep.include({
      code: 'store.update.available',
      params: { appId: 'org.example.clock', version: '1.1.0', installedVersion: '1.0.0' },
      link: '/app/org.service.app-center/store',
    });
    expect((await admin.api.store.state()).updates.map((u) => u.appId)).to.deep.equal(['org.example.clock']);
  });

  it('announces each app version once: a later check stays quiet, a newer version is announced again', async () => {
    const announced = async () =>
      (await admin.api.notifications.list()).items.filter((n) => n.type === 'store.update').map((n) => `${n.params?.appId}@${n.params?.version}`);
    expect(await announced()).to.deep.equal(['org.example.clock@1.1.0']);
    let check = await ended(admin, (await admin.api.store.check()).id, 60_000);
    expect(check.result).to.deep.include({ announced: [] });
    expect(await announced()).to.deep.equal(['org.example.clock@1.1.0']);
    // The beta channel (in use since the channel test) gets clock 1.2.0.
    const next = structuredClone(stable);
    next.apps[0]!.versions.push({ folder: appFolder(work, { id: 'org.example.notes', version: '2.0.0', dataVersion: 2 }) });
    next.apps[2]!.versions.push({ folder: appFolder(work, { id: 'org.example.clock', version: '1.2.0', author: 'Clockmakers' }) });
    await catalogBranch(gitRoot(), 'project', 'catalog-next', next, key.signing);
    check = await ended(admin, (await admin.api.store.check()).id, 60_000);
    expect(check.state, JSON.stringify(check.error)).to.equal('succeeded');
    expect(check.result).to.deep.include({ announced: [{ appId: 'org.example.clock', version: '1.2.0' }] });
    expect(await announced()).to.deep.equal(['org.example.clock@1.2.0', 'org.example.clock@1.1.0']);
  });
});

describe('store: the daily check time', function () {
  this.timeout(30_000);
  it('keeps its delay of under an hour across a restart, and the next check follows the daily time in the box zone', async () => {
    let box = await startTestDaemon({}, { store: { projectCatalogs: [] } });
    let admin = await box.signIn();
    const first = await admin.api.store.settings({ body: { dailyTime: '04:30', policy: 'automatic' } });
    expect(first.delayMinutes).to.be.within(0, 59);
    const zone = (await admin.api.systemTime.time()).timeZone;
    const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(first.nextCheckAt),
    );
    const minutes = 4 * 60 + 30 + first.delayMinutes;
    expect(parts).to.equal(`${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`);
    await box.close({ keepData: true });
    box = await startTestDaemon({ dataDir: box.dataDir }, { store: { projectCatalogs: [] } });
    admin = await box.signIn();
    const again = (await admin.api.store.state()).settings;
    expect(again).to.deep.equal(first);
    await box.close();
  });
});
