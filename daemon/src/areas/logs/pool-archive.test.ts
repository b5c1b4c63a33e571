import { expect } from 'chai';
import type { PoolList } from '../../../../shared/src/api/storage/pools.ts';
import { poolArchive } from './pool-archive.ts';

type Pool = PoolList['pools'][number];
type Dataset = Pool['datasets'][number];

const dataset = (name: string, extra: Partial<Dataset> = {}): Dataset => ({
  name,
  usedBytes: 0,
  availableBytes: 0,
  quotaBytes: null,
  refquotaBytes: null,
  mountpoint: `/mnt/${name}`,
  mounted: true,
  readOnly: false,
  ...extra,
});

const pool = (name: string, health: string, root: Partial<Dataset> = {}): Pool => ({ name, health, datasets: [dataset(name, root)] }) as unknown as Pool;

describe('poolArchive', () => {
  it('offers healthy pools with a mounted, writable root and puts the archive in a folder of it', () => {
    const list = {
      readAt: '',
      pools: [
        pool('degraded', 'DEGRADED'),
        pool('tank', 'ONLINE'),
        pool('ro', 'ONLINE', { readOnly: true }),
        pool('gone', 'ONLINE', { mounted: false }),
        pool('backup', 'ONLINE'),
      ],
    } as PoolList;
    const archive = poolArchive(() => list);
    expect(archive.pools()).to.deep.equal(['tank', 'backup']);
    expect(archive.dir(null)).to.equal('/mnt/tank/.cellar-logs');
    expect(archive.dir('backup')).to.equal('/mnt/backup/.cellar-logs');
    expect(archive.dir('degraded')).to.equal(null);
    expect(archive.dir('absent')).to.equal(null);
  });

  it('has nothing before the pools were read', () => {
    const archive = poolArchive(() => null);
    expect(archive.pools()).to.deep.equal([]);
    expect(archive.dir(null)).to.equal(null);
  });
});
