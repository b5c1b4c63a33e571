import { expect } from 'chai';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProblemError } from '../../core/problem-error.ts';
import { checkFolders, type BoxDatasets } from './shares.backup.ts';

/**
 * The box rule for a backup's shares (issue 27): only the share tree of a dataset of the box's
 * own pools. The pools are real folders standing in for mount points; zfs answers through BoxDatasets.
 */
describe('shares in a backup, on a box', () => {
  let root: string;
  let datasets: BoxDatasets;
  const share = (fields: Record<string, string | null>) => ({ id: 1, name: 'Photos', kind: 'dataset', ...fields });
  const reason = async (fields: Record<string, string | null>): Promise<string | null> => {
    try {
      await checkFolders([share(fields)], { mode: 'box', dataDir: path.join(root, 'data'), datasets });
      return null;
    } catch (err) {
      if (err instanceof ProblemError && err.code === 'backup.share.folder_refused') return String((err.params as { reason: string }).reason);
      throw err;
    }
  };

  before(() => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'cellar-box-shares-')));
    for (const folder of ['tank/photos/files', 'tank/other', 'data']) mkdirSync(path.join(root, folder), { recursive: true });
    const mounts: Record<string, string> = { 'tank/photos': path.join(root, 'tank/photos'), 'cellar-system/var': path.join(root, 'tank/other') };
    datasets = { sharePools: () => Promise.resolve(['tank']), mountpoint: (dataset) => Promise.resolve(mounts[dataset] ?? null) };
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("accepts the share tree of a dataset of the box's pools, and a dataset of a pool it lacks whose folder is not there", async () => {
    expect(await reason({ dataset: 'tank/photos', host_path: path.join(root, 'tank/photos/files') })).to.equal(null);
    expect(await reason({ dataset: 'elsewhere/photos', host_path: '/elsewhere/photos/files' })).to.equal(null);
    expect(await reason({ dataset: 'tank/gone', host_path: path.join(root, 'tank/gone/files') })).to.equal(null);
  });

  it('refuses a plain folder, a folder that is not its dataset’s share tree, and an existing folder named for a pool it lacks or the system pool', async () => {
    expect(await reason({ kind: 'folder', dataset: null, host_path: path.join(root, 'tank/other') })).to.equal('notDataset');
    expect(await reason({ dataset: 'tank/photos', host_path: path.join(root, 'tank/other') })).to.equal('notDatasetFolder');
    expect(await reason({ dataset: 'tank/gone', host_path: path.join(root, 'tank/other') })).to.equal('notDatasetFolder');
    expect(await reason({ dataset: 'elsewhere/photos', host_path: path.join(root, 'tank/other') })).to.equal('notOnPool');
    expect(await reason({ dataset: 'cellar-system/var', host_path: path.join(root, 'tank/other') })).to.equal('notOnPool');
    expect(await reason({ dataset: 'tank/photos', host_path: '/etc' })).to.equal('system');
  });
});
