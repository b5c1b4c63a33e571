import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { expectProblem, startTestDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { buildDeb } from '../helpers/update-channel.ts';
import { UpdateRoot } from './update-root-fixture.ts';
import { sh } from './zfs-fixture.ts';

/**
 * docs/updates.md: the data directory must be a dataset of its own, or returning the system
 * datasets to a snapshot would take users, shares and settings back too (and the database from
 * under the running daemon). A daemon whose data directory lies inside the system dataset refuses
 * to install and to restore; one on a dataset of its own below it does not. Needs root and zfs-fuse.
 */
describe('updates: a data directory inside a system dataset is refused, one on a dataset of its own is not', function () {
  this.timeout(5 * 60 * 1000);
  let r: UpdateRoot;
  let box: TestDaemon | null = null;

  const start = (dataDir: string) => startTestDaemon({ dataDir }, { updates: { apply: true, root: r.root, systemDatasets: [r.dataset], channelUrl: null } });

  before(async () => {
    r = await UpdateRoot.create('updv');
    r.dpkgInstall([buildDeb(path.join(r.disks.work, 'build'), { name: 'cellar', version: '1.0' })]);
  });
  afterEach(async () => {
    await box?.close({ keepData: true });
    box = null;
  });
  after(() => r?.cleanup());

  it('refuses install and restore with the folder and the dataset when /var/lib/cellar is a folder of the root dataset', async () => {
    const dataDir = path.join(r.root, 'var/lib/cellar');
    mkdirSync(dataDir, { recursive: true });
    box = await start(dataDir);
    const admin = await box.signIn();
    // The status says so before anybody presses install.
    expect(await admin.api.updates.status()).to.deep.include({ applies: false, notApplicable: 'dataInSystem' });
    const install = await expectProblem(admin.api.updates.install({ body: { box: 'none', distribution: true } }), 'system.updates.data_in_system', 409);
    expect(install.problem.params).to.deep.equal({ dataDir, dataset: r.dataset });
    const restore = await expectProblem(
      admin.api.updates.restore({ params: { name: 'service-update-20261130T020000Z' } }),
      'system.updates.data_in_system',
      409,
    );
    expect(restore.problem.params).to.deep.equal({ dataDir, dataset: r.dataset });
    expect((await admin.api.updates.status()).history).to.deep.equal([]);
    expect(r.installed('cellar')).to.equal('1.0');
  });

  it('lets the update through to its next rule when the data directory is a dataset of its own mounted inside the root', async () => {
    const dataDir = path.join(r.root, 'srv/cellar-data');
    sh(['zfs', 'create', '-o', `mountpoint=${dataDir}`, `${r.pool}/cellar-data`]);
    box = await start(dataDir);
    const admin = await box.signIn();
    expect(await admin.api.updates.status()).to.deep.include({ applies: true, notApplicable: null });
    // Past the data directory's rule: no uploaded file, no snapshot.
    await expectProblem(admin.api.updates.install({ body: { box: 'upload', distribution: false } }), 'system.update.not_found', 404);
    await expectProblem(admin.api.updates.restore({ params: { name: 'service-update-20261130T020000Z' } }), 'system.snapshot.not_found', 404);
  });
});
