import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppManifest } from '../../shared/src/api/apps/app-manifest.ts';
import type { Job } from '../../shared/src/api/jobs/jobs.ts';
import { buildAppPackage } from '../../build/scripts/build-app-package.js';
import { expectProblem, startTestDaemon, type TestClient, type TestDaemon } from '../helpers/daemon.ts';
import { finished } from '../helpers/file-operations.ts';
import { tgzOf } from '../helpers/tar-builder.ts';
import { insertUser } from '../helpers/users.ts';

/**
 * Installed apps on a development daemon: each app's volume is a folder below the data
 * directory (FolderAppVolumes) and its account is only logged; test/system/apps-zfs.test.ts runs
 * the same life cycle on zfs-fuse datasets with real accounts.
 */
const example = JSON.parse(readFileSync('examples/hello-app/manifest.json', 'utf8')) as AppManifest;

/** The example app at another version, built as a package of the tests. */
function exampleAt(version: string, extra: Partial<AppManifest> = {}): Buffer {
  const dir = 'examples/hello-app';
  const file = (name: string) => ({ name, body: readFileSync(path.join(dir, name)) });
  return tgzOf([
    { name: 'manifest.json', body: JSON.stringify({ ...example, version, ...extra }) },
    file('icon.svg'),
    { name: 'frontend/', type: 'dir' },
    file('frontend/index.html'),
    { name: 'frontend/version.txt', body: version },
    { name: 'backend/', type: 'dir' },
    file('backend/server.js'),
  ]);
}

describe('installed apps: install, update, rollback, grants, permissions, uninstall', function () {
  this.timeout(60_000);
  let box: TestDaemon;
  let admin: TestClient;
  let user: TestClient;
  let userId: number;
  let built: string;
  const appId = example.id;
  const volume = () => path.join(box.dataDir, 'apps', 'volumes', 'tank', appId);

  const upload = async (body: Buffer) => admin.api.apps.uploadPackage({ body });
  const done = async (job: Job | Promise<Job>) => {
    const end = await finished(admin, (await job).id);
    expect(end.state, JSON.stringify(end.error)).to.equal('succeeded');
    return end;
  };
  const install = async (body: Buffer, request: { pool?: string; access?: 'everybody' | 'admins' } = {}) => {
    const preview = await upload(body);
    return done(admin.api.apps.install({ params: { packageId: preview.packageId }, body: request }));
  };
  const app = async () => (await admin.api.apps.list()).apps.find((a) => a.id === appId);

  before(async () => {
    box = await startTestDaemon();
    admin = await box.signIn();
    userId = await insertUser(box, 'uma', 'uma-password-1');
    user = await box.signIn('uma', 'uma-password-1');
    built = await buildAppPackage('examples/hello-app', await mkdtemp(path.join(tmpdir(), 'cellar-apps-')));
  });
  after(async () => {
    await box?.close();
    await rm(path.dirname(built), { recursive: true, force: true });
  });

  it('needs a pool for the first app, and keeps the package after refusing', async () => {
    const preview = await upload(readFileSync(built));
    await expectProblem(admin.api.apps.install({ params: { packageId: preview.packageId }, body: {} }), 'app.pool.required', 400);
    // The package is still kept after the refusal.
    expect((await admin.api.apps.package({ params: { packageId: preview.packageId } })).packageId).to.equal(preview.packageId);
    await admin.api.apps.discardPackage({ params: { packageId: preview.packageId } });
    expect(await admin.api.apps.list()).to.deep.include({ pool: null, apps: [] });
  });

  it('installs the example app as a job: its volume with the package and a private data folder, its own uid, everybody allowed', async () => {
    const job = await install(readFileSync(built), { pool: 'tank' });
    expect(job.result).to.deep.equal({ appId, version: '1.0.0' });
    const list = await admin.api.apps.list();
    expect(list.pool).to.equal('tank');
    const details = list.apps[0];
    expect(details).to.include({
      id: appId,
      state: 'enabled',
      uid: 40000,
      dataset: `tank/${appId}`,
      logLevel: 'info',
      updatePolicy: null,
      previousVersion: null,
    });
    expect(details?.permissions).to.deep.equal({ granted: ['notifications'], revoked: [] });
    expect(details?.storage).to.deep.equal([{ ...example.storage[0], mapping: null }]);
    expect(readdirSync(path.join(volume(), 'package', 'frontend'))).to.include('index.html');
    const data = statSync(path.join(volume(), 'data'));
    expect(data.mode & 0o777).to.equal(0o700);
    if (process.getuid?.() === 0) expect(data.uid).to.equal(40000);
    // The package is used up: nothing of it stays kept or on disk.
    expect(readdirSync(path.join(box.dataDir, 'apps', 'packages'))).to.deep.equal([]);
    const grants = await admin.api.apps.grants({ params: { appId } });
    expect(grants.users).to.deep.equal([]);
    expect(grants.groups).to.have.length(1);
    expect(grants.result.find((r) => r.userId === userId)).to.deep.include({ allowed: true, via: 'group' });
    // The permission catalog lists it, so the permission editors keep its grants.
    const catalog = await admin.api.permissions.catalog();
    expect(catalog.rights.map((r) => r.id)).to.include(`app:${appId}`);
  });

  it('serves the icon sandboxed to those who may use the app, and to nobody else', async () => {
    const res = await user.request('GET', `/api/apps/${appId}/icon`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect(res.headers.get('content-security-policy')).to.match(/^default-src 'none'.*; sandbox$/);
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(await res.text()).to.equal(readFileSync('examples/hello-app/icon.svg', 'utf8'));
    await admin.api.apps.setGrants({ params: { appId }, body: { users: [], groups: [] } });
    const refused = await user.request('GET', `/api/apps/${appId}/icon`);
    expect(refused.status).to.equal(404);
    expect((await refused.json()).code).to.equal('app.app.not_found');
    const granted = await admin.api.apps.setGrants({ params: { appId }, body: { users: [userId], groups: [] } });
    expect(granted.users).to.deep.equal([userId]);
    expect(granted.result.find((r) => r.userId === userId)).to.deep.include({ allowed: true, via: 'user' });
    expect((await user.request('GET', `/api/apps/${appId}/icon`)).status).to.equal(200);
    await expectProblem(admin.api.apps.setGrants({ params: { appId }, body: { users: [99999], groups: [] } }), 'fs.grant.subject_not_found', 400);
  });

  it('grants and revokes only permissions the manifest asks for, and sets the log level and update policy', async () => {
    const revoked = await admin.api.apps.setPermissions({ params: { appId }, body: { permissions: { notifications: false } } });
    expect(revoked.permissions).to.deep.equal({ granted: [], revoked: ['notifications'] });
    await expectProblem(admin.api.apps.setPermissions({ params: { appId }, body: { permissions: { files: true } } }), 'app.permission.not_requested', 400);
    expect((await admin.api.apps.setLogLevel({ params: { appId }, body: { level: 'debug' } })).logLevel).to.equal('debug');
    expect((await admin.api.apps.setUpdatePolicy({ params: { appId }, body: { policy: 'notify' } })).updatePolicy).to.equal('notify');
    expect((await admin.api.apps.setUpdatePolicy({ params: { appId }, body: { policy: null } })).updatePolicy).to.equal(null);
  });

  it('keeps an administrator’s quota on a development machine’s folders, says it is not enforced there, and tells the backends’ limits', async () => {
    const mib = 1024 * 1024;
    const list = await admin.api.apps.list();
    expect(list.quotaEnforced).to.equal(false);
    // The example's manifest names no quota: the house default.
    expect(list.apps.find((a) => a.id === appId)?.quota).to.deep.equal({
      bytes: null,
      defaultBytes: 10240 * mib,
      effectiveBytes: 10240 * mib,
      usedBytes: null,
    });
    expect(list.backendLimits).to.deep.include({ memoryBytes: 1024 * mib, tasks: 256, cpuPercent: 100 });
    // Root here makes cgroups of its own; otherwise the list says why nothing holds them.
    if (process.getuid?.() !== 0) expect(list.backendLimits).to.deep.include({ enforcedBy: null, reason: 'notRoot' });
    else expect(list.backendLimits.enforcedBy).to.not.equal(null);
    const set = await admin.api.apps.setQuota({ params: { appId }, body: { quotaBytes: 2048 * mib } });
    expect(set.quota).to.deep.include({ bytes: 2048 * mib, effectiveBytes: 2048 * mib });
    expect((await admin.api.apps.setQuota({ params: { appId }, body: { quotaBytes: 0 } })).quota.effectiveBytes).to.equal(null);
    await expectProblem(admin.api.apps.setQuota({ params: { appId }, body: { quotaBytes: 1000 } }), 'request.body.invalid', 400);
    await expectProblem(user.api.apps.setQuota({ params: { appId }, body: { quotaBytes: null } }), 'auth.permission.denied', 403);
    await expectProblem(admin.api.apps.setQuota({ params: { appId: 'org.example.missing' }, body: { quotaBytes: null } }), 'app.app.not_found', 404);
    expect((await admin.api.apps.setQuota({ params: { appId }, body: { quotaBytes: null } })).quota.bytes).to.equal(null);
  });

  it('updates with a snapshot first; a revoked permission stays revoked; rollback returns to the old version and data', async () => {
    writeFileSync(path.join(volume(), 'data', 'before.txt'), 'written by 1.0.0');
    await install(exampleAt('1.1.0'));
    const updated = await app();
    expect(updated).to.include({ previousVersion: '1.0.0', uid: 40000 });
    expect(updated?.manifest.version).to.equal('1.1.0');
    expect(updated?.permissions.revoked).to.deep.equal(['notifications']);
    expect(readFileSync(path.join(volume(), 'package', 'frontend', 'version.txt'), 'utf8')).to.equal('1.1.0');
    writeFileSync(path.join(volume(), 'data', 'after.txt'), 'written by 1.1.0');

    await done(admin.api.apps.rollback({ params: { appId } }));
    const back = await app();
    expect(back?.manifest.version).to.equal('1.0.0');
    expect(back?.previousVersion).to.equal(null);
    expect(existsSync(path.join(volume(), 'package', 'frontend', 'version.txt'))).to.equal(false);
    expect(readFileSync(path.join(volume(), 'data', 'before.txt'), 'utf8')).to.equal('written by 1.0.0');
    expect(existsSync(path.join(volume(), 'data', 'after.txt'))).to.equal(false);
    await expectProblem(admin.api.apps.rollback({ params: { appId } }), 'app.app.no_previous', 409);
  });

  it('refuses an older version with another data version at install time', async () => {
    await install(exampleAt('2.0.0', { dataVersion: 2 }));
    await expectProblem(upload(exampleAt('1.5.0')), 'app.package.downgrade_unsupported', 409);
  });

  it('disables an app: data and grants stay, its users cannot reach it', async () => {
    const off = await admin.api.apps.update({ params: { appId }, body: { enabled: false } });
    expect(off.state).to.equal('disabled');
    expect((await user.request('GET', `/api/apps/${appId}/icon`)).status).to.equal(404);
    expect((await admin.request('GET', `/api/apps/${appId}/icon`)).status).to.equal(200);
    expect((await admin.api.apps.grants({ params: { appId } })).users).to.deep.equal([userId]);
    const on = await admin.api.apps.update({ params: { appId }, body: { enabled: true } });
    expect(on.state).to.equal('enabled');
    expect((await user.request('GET', `/api/apps/${appId}/icon`)).status).to.equal(200);
  });

  it('uninstalls keeping the data for a later install of the same id, then deletes it; an account number belongs to one app id for good', async () => {
    await done(admin.api.apps.uninstall({ params: { appId }, query: { data: 'keep' } }));
    expect((await admin.api.apps.list()).apps).to.deep.equal([]);
    expect(existsSync(path.join(volume(), 'package'))).to.equal(false);
    expect(readFileSync(path.join(volume(), 'data', 'before.txt'), 'utf8')).to.equal('written by 1.0.0');
    expect((await admin.api.permissions.catalog()).rights.map((r) => r.id)).to.not.include(`app:${appId}`);
    await expectProblem(admin.api.apps.grants({ params: { appId } }), 'app.app.not_found', 404);

    await install(readFileSync(built), { access: 'admins' });
    const again = await app();
    expect(again?.uid).to.equal(40000);
    expect(readFileSync(path.join(volume(), 'data', 'before.txt'), 'utf8')).to.equal('written by 1.0.0');
    // access=admins: no grants, so only administrators use it.
    expect((await user.request('GET', `/api/apps/${appId}/icon`)).status).to.equal(404);

    await done(admin.api.apps.uninstall({ params: { appId }, query: { data: 'delete' } }));
    expect(existsSync(volume())).to.equal(false);
    await install(readFileSync(built));
    expect((await app())?.uid).to.equal(40000);
    expect(existsSync(path.join(volume(), 'data', 'before.txt'))).to.equal(false);
    await install(exampleAt('1.0.0', { id: 'org.example.other' }));
    expect((await admin.api.apps.list()).apps.map((a) => [a.id, a.uid])).to.deep.equal([
      [appId, 40000],
      ['org.example.other', 40001],
    ]);
  });

  it('refuses another administrator’s package, an app pool other than the first, and a missing app', async () => {
    await insertUser(box, 'ada', 'ada-password-1', { admin: true });
    const other = await box.signIn('ada', 'ada-password-1');
    const preview = await upload(readFileSync(built));
    await expectProblem(other.api.apps.install({ params: { packageId: preview.packageId }, body: {} }), 'app.package.not_found', 404);
    await expectProblem(admin.api.apps.install({ params: { packageId: preview.packageId }, body: { pool: 'other' } }), 'app.pool.fixed', 409);
    await expectProblem(admin.api.apps.update({ params: { appId: 'org.example.missing' }, body: { enabled: false } }), 'app.app.not_found', 404);
    await expectProblem(admin.api.apps.uninstall({ params: { appId: 'org.example.missing' }, query: { data: 'keep' } }), 'app.app.not_found', 404);
  });
});
