import { expect } from 'chai';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAppPackage } from '../../build/scripts/build-app-package.js';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { startGitHttp, type LoopbackServer } from '../helpers/git-servers.ts';
import { appFolder, catalogBranch, ended, testSigningKey } from '../helpers/store-catalogs.ts';

/**
 * Two catalogs offering the same app ids: the signed project catalog and an unsigned custom one.
 * Each app takes updates only from the catalog it came from (a hand upload is its own source), and
 * an update that brings a new backend waits for an administrator even under `automatic`.
 */
describe('store: each app takes updates only from its own source, and a new backend needs consent', function () {
  this.timeout(120_000);
  let work: string;
  let git: LoopbackServer;
  let box: TestDaemon;
  let admin: TestClient;
  let customId: string;
  const gitRoot = () => path.join(work, 'git');
  const installFrom = async (catalog: string, appId: string, version: string, body: { pool?: string; switchSource?: boolean } = {}) => {
    const preview = await admin.api.store.package({ params: { catalog, appId, version } });
    return { preview, job: () => admin.api.apps.install({ params: { packageId: preview.packageId }, body }) };
  };
  const installed = async () => new Map((await admin.api.apps.list()).apps.map((a) => [a.id, { version: a.manifest.version, source: a.source }]));

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'cellar-store-sources-'));
    const key = testSigningKey(work);
    // clock 1.1.0 runs a backend that 1.0.0 did not have.
    const withBackend = appFolder(work, { id: 'org.example.clock', version: '1.1.0', backend: { command: ['node', 'server.js'], listen: 'unix-socket' } });
    cpSync('examples/hello-app/backend', path.join(withBackend, 'backend'), { recursive: true });
    await catalogBranch(
      gitRoot(),
      'project',
      'catalog',
      {
        name: 'Project',
        apps: [
          { versions: [{ folder: appFolder(work, { id: 'org.example.notes', version: '1.0.0' }) }] },
          { versions: [{ folder: appFolder(work, { id: 'org.example.clock', version: '1.0.0' }) }, { folder: withBackend }] },
          { versions: [{ folder: appFolder(work, { id: 'org.example.hand', version: '2.0.0' }) }] },
        ],
      },
      key.signing,
    );
    // The unsigned catalog offers a much newer notes under the same id.
    await catalogBranch(gitRoot(), 'custom', 'catalog', {
      name: 'Custom',
      apps: [{ versions: [{ folder: appFolder(work, { id: 'org.example.notes', version: '9.0.0', permissions: ['notifications', 'files'] }) }] }],
    });
    git = await startGitHttp(gitRoot());
    box = await startTestDaemon(
      { trustedKeysFile: key.keysFile },
      { store: { projectCatalogs: [{ id: 'project', name: 'Project', url: `${git.url}/project/.git` }], fetchTimeoutMs: 10_000 } },
    );
    admin = await box.signIn();
    const project = (await admin.api.store.state()).catalogs.find((c) => c.id === 'project')!;
    expect((await ended(admin, (await admin.api.store.sync({ params: { key: project.key } })).id)).state).to.equal('succeeded');
    const custom = await admin.api.store.addCatalog({ body: { url: `${git.url}/custom/.git` } });
    customId = custom.id;
    expect((await ended(admin, (await admin.api.store.sync({ params: { key: custom.key } })).id)).state).to.equal('succeeded');

    // notes and clock from the project catalog, hand by upload.
    let job = await (await installFrom('project', 'org.example.notes', '1.0.0', { pool: 'tank' })).job();
    expect((await ended(admin, job.id)).state).to.equal('succeeded');
    job = await (await installFrom('project', 'org.example.clock', '1.0.0')).job();
    expect((await ended(admin, job.id)).state).to.equal('succeeded');
    mkdirSync(path.join(work, 'built'), { recursive: true });
    const built = await buildAppPackage(appFolder(work, { id: 'org.example.hand', version: '1.0.0' }), path.join(work, 'built'));
    const upload = await admin.api.apps.uploadPackage({ body: readFileSync(built) });
    expect(upload).to.include({ source: null, installedSource: null });
    expect((await ended(admin, (await admin.api.apps.install({ params: { packageId: upload.packageId }, body: {} })).id)).state).to.equal('succeeded');
  });
  after(async () => {
    await box?.close();
    await git?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('remembers where each app came from: its catalog, or none for an upload by hand', async () => {
    const apps = await installed();
    expect(apps.get('org.example.notes')).to.deep.equal({ version: '1.0.0', source: 'project' });
    expect(apps.get('org.example.clock')).to.deep.equal({ version: '1.0.0', source: 'project' });
    expect(apps.get('org.example.hand')).to.deep.equal({ version: '1.0.0', source: null });
  });

  it('lists and installs updates from the app’s own catalog only: the unsigned catalog’s notes 9.0.0 never goes in, even under automatic', async () => {
    const updates = (await admin.api.store.state()).updates;
    // clock 1.1.0 is the project's own; notes 9.0.0 (custom) and hand 2.0.0 (the app was uploaded by hand) are no updates.
    expect(updates.map((u) => `${u.appId}@${u.version}:${u.catalog}`)).to.deep.equal(['org.example.clock@1.1.0:project']);
    for (const appId of ['org.example.notes', 'org.example.clock', 'org.example.hand'])
      await admin.api.apps.setUpdatePolicy({ params: { appId }, body: { policy: 'automatic' } });
    const check = await ended(admin, (await admin.api.store.check()).id, 60_000);
    expect(check.state, JSON.stringify(check.error)).to.equal('succeeded');
    expect(check.result).to.deep.include({ installed: [], installFailed: [] });
    const apps = await installed();
    expect(apps.get('org.example.notes')).to.deep.equal({ version: '1.0.0', source: 'project' });
    expect(apps.get('org.example.hand')).to.deep.equal({ version: '1.0.0', source: null });
  });

  it('under automatic, an update that adds a backend waits for an administrator, who is told and sees it in the preview', async () => {
    expect((await installed()).get('org.example.clock')?.version).to.equal('1.0.0');
    const told = (await admin.api.notifications.list()).items.filter((n) => n.type === 'store.update');
    expect(told.map((n) => [n.code, n.params?.appId, n.params?.version])).to.deep.equal([['store.update.needs_consent', 'org.example.clock', '1.1.0']]);
    const { preview, job } = await installFrom('project', 'org.example.clock', '1.1.0');
    expect(preview).to.include({ action: 'update', backend: 'added', source: 'project', installedSource: 'project' });
    expect(preview.permissions.added).to.deep.equal([]);
    // The administrator's own install is the consent.
    expect((await ended(admin, (await job()).id, 60_000)).state).to.equal('succeeded');
    expect((await installed()).get('org.example.clock')?.version).to.equal('1.1.0');
  });

  it('refuses a version from another source unless the administrator switches the app’s source', async () => {
    const { preview, job } = await installFrom(customId, 'org.example.notes', '9.0.0');
    expect(preview).to.include({ action: 'update', source: customId, installedSource: 'project' });
    const err = await expectProblem(job(), 'app.package.source_changed', 409);
    expect(err.problem.params).to.deep.equal({ appId: 'org.example.notes', source: customId, installedSource: 'project' });
    // A hand upload is a source of its own too.
    const built = await buildAppPackage(appFolder(work, { id: 'org.example.notes', version: '1.5.0' }), path.join(work, 'built'));
    const upload = await admin.api.apps.uploadPackage({ body: readFileSync(built) });
    await expectProblem(admin.api.apps.install({ params: { packageId: upload.packageId }, body: {} }), 'app.package.source_changed', 409);
    expect((await installed()).get('org.example.notes')).to.deep.equal({ version: '1.0.0', source: 'project' });
    // Said explicitly, the package goes in and its catalog becomes the app's source.
    const again = await installFrom(customId, 'org.example.notes', '9.0.0', { switchSource: true });
    expect((await ended(admin, (await again.job()).id)).state).to.equal('succeeded');
    expect((await installed()).get('org.example.notes')).to.deep.equal({ version: '9.0.0', source: customId });
  });
});
