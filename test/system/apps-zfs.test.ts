import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { AppManifest } from '../../shared/src/api/apps/app-manifest.ts';
import { appAccountName } from '../../daemon/src/host/app-accounts.ts';
import { expectProblem, type TestClient } from '../helpers/daemon.ts';
import { finished } from '../helpers/file-operations.ts';
import { tgzOf, type TarEntry } from '../helpers/tar-builder.ts';
import { startAppsBox, type AppsBox } from './apps-fixture.ts';
import { sh, zfsGet } from './zfs-fixture.ts';

// Real ZFS (zfs-fuse on loop devices) and real system accounts, as root: apps' datasets,
// snapshots around updates, and their accounts (app<uid>, removed again after the test).
const example = JSON.parse(readFileSync('examples/hello-app/manifest.json', 'utf8')) as AppManifest;
const appId = example.id;
const mib = 1024 * 1024;

const getent = (db: 'passwd' | 'group', name: string): string | null => {
  try {
    return sh(['getent', db, name]).trim();
  } catch {
    return null;
  }
};

function exampleAt(version: string, extra: TarEntry[] = []): Buffer {
  const file = (name: string) => ({ name, body: readFileSync(path.join('examples/hello-app', name)) });
  return tgzOf([
    { name: 'manifest.json', body: JSON.stringify({ ...example, version }) },
    file('icon.svg'),
    { name: 'frontend/', type: 'dir' },
    file('frontend/index.html'),
    { name: 'frontend/version.txt', body: version },
    ...extra,
    { name: 'backend/', type: 'dir' },
    file('backend/server.js'),
  ]);
}

describe('apps on zfs-fuse with real accounts', function () {
  this.timeout(120_000);
  let apps: AppsBox;
  let admin: TestClient;
  let pool: string;
  let built: string;
  const dataset = () => `${pool}/apps/${appId}`;
  const mountpoint = () => zfsGet('mountpoint', dataset());
  const install = (body: Buffer, request: { pool?: string } = {}) => apps.install(body, request);
  const version = async () => (await admin.api.apps.list()).apps.find((a) => a.id === appId)?.manifest.version;
  const snapshots = () => sh(['zfs', 'list', '-H', '-t', 'snapshot', '-o', 'name', '-r', dataset()]).split('\n').filter(Boolean);

  before(async () => {
    apps = await startAppsBox('cellarap');
    ({ admin, pool, built } = apps);
  });
  after(() => apps?.close());

  it('refuses a pool that does not exist', async () => {
    const preview = await admin.api.apps.uploadPackage({ body: readFileSync(built) });
    await expectProblem(admin.api.apps.install({ params: { packageId: preview.packageId }, body: { pool: `${pool}-missing` } }), 'storage.pool.not_found', 404);
    await admin.api.apps.discardPackage({ params: { packageId: preview.packageId } });
  });

  it('installs into the dataset <pool>/apps/<id>, owned by the app’s own account without a shell', async () => {
    const job = await install(readFileSync(built), { pool });
    expect(job.state, JSON.stringify(job.error)).to.equal('succeeded');
    expect(zfsGet('type', dataset())).to.equal('filesystem');
    const account = getent('passwd', appAccountName(40000));
    expect(account).to.match(/^app40000:x:40000:40000:Cellar app org\.example\.hello:/);
    expect(account).to.match(/:\/usr\/sbin\/nologin$/);
    const data = statSync(path.join(mountpoint(), 'data'));
    expect([data.uid, data.gid, data.mode & 0o777]).to.deep.equal([40000, 40000, 0o700]);
    // The package is the daemon's: the app's account can read it, not change it.
    expect(statSync(path.join(mountpoint(), 'package')).uid).to.equal(0);
    writeFileSync(path.join(mountpoint(), 'data', 'notes.txt'), 'from 1.0.0');
  });

  it('returns to the old version and data when an update fails half way (the dataset runs out of quota)', async () => {
    // The app's quota is the daemon's to keep (an install sets it again): set as an administrator does.
    const used = Number(zfsGet('used', dataset()));
    await admin.api.apps.setQuota({ params: { appId }, body: { quotaBytes: used + mib } });
    try {
      const job = await install(exampleAt('1.1.0', [{ name: 'frontend/big.bin', body: randomBytes(4 * mib) }]));
      expect(job.state).to.equal('failed');
    } finally {
      await admin.api.apps.setQuota({ params: { appId }, body: { quotaBytes: null } });
    }
    expect(await version()).to.equal('1.0.0');
    expect(existsSync(path.join(mountpoint(), 'package', 'frontend', 'version.txt'))).to.equal(false);
    expect(readFileSync(path.join(mountpoint(), 'data', 'notes.txt'), 'utf8')).to.equal('from 1.0.0');
    expect(snapshots()).to.deep.equal([]);
    expect((await admin.api.apps.list()).apps[0]?.previousVersion).to.equal(null);
  });

  it('snapshots before a good update, and rollback restores that snapshot', async () => {
    expect((await install(exampleAt('1.1.0'))).state).to.equal('succeeded');
    expect(snapshots()).to.have.length(1);
    expect(snapshots()[0]).to.match(new RegExp(`^${dataset()}@service-update-\\d{8}T\\d{6}Z$`));
    writeFileSync(path.join(mountpoint(), 'data', 'notes.txt'), 'from 1.1.0');
    const rolledBack = await finished(admin, (await admin.api.apps.rollback({ params: { appId } })).id, 60_000);
    expect(rolledBack.state, JSON.stringify(rolledBack.error)).to.equal('succeeded');
    expect(await version()).to.equal('1.0.0');
    expect(readFileSync(path.join(mountpoint(), 'data', 'notes.txt'), 'utf8')).to.equal('from 1.0.0');
    expect(existsSync(path.join(mountpoint(), 'package', 'frontend', 'version.txt'))).to.equal(false);
    expect(snapshots()).to.deep.equal([]);
  });

  it('keeps the dataset on uninstall with keep, finds it again on install, and destroys dataset and account on delete', async () => {
    const keep = await finished(admin, (await admin.api.apps.uninstall({ params: { appId }, query: { data: 'keep' } })).id, 60_000);
    expect(keep.state, JSON.stringify(keep.error)).to.equal('succeeded');
    expect(zfsGet('type', dataset())).to.equal('filesystem');
    expect(existsSync(path.join(mountpoint(), 'package'))).to.equal(false);
    expect((await install(readFileSync(built))).state).to.equal('succeeded');
    expect(readFileSync(path.join(mountpoint(), 'data', 'notes.txt'), 'utf8')).to.equal('from 1.0.0');

    const del = await finished(admin, (await admin.api.apps.uninstall({ params: { appId }, query: { data: 'delete' } })).id, 60_000);
    expect(del.state, JSON.stringify(del.error)).to.equal('succeeded');
    expect(() => sh(['zfs', 'list', dataset()])).to.throw();
    expect(getent('passwd', appAccountName(40000))).to.equal(null);
    expect(getent('group', appAccountName(40000))).to.equal(null);
  });
});
